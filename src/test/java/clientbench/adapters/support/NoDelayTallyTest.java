package clientbench.adapters.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.Socket;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a client's settings say of TCP_NODELAY, from values read elsewhere (the sockets themselves). */
class NoDelayTallyTest {

    @Test
    void aSocketIsReadForWhatItRunsWith() throws Exception {
        try (Socket on = new Socket(); Socket off = new Socket()) {
            on.setTcpNoDelay(true);
            off.setTcpNoDelay(false);
            NoDelayTally one = new NoDelayTally("as it connected");
            one.read(on);
            assertEquals("on (read from the one socket as it connected)", one.describe());
            NoDelayTally both = new NoDelayTally("as it connected");
            both.read(off);
            both.read(off);
            assertEquals("off: Nagle's algorithm on (read from each of the 2 sockets as it connected)", both.describe());
        }
    }

    @Test
    void aSocketClosedBeforeItWasReadIsUnreadableNotAnException() throws Exception {
        NoDelayTally t = new NoDelayTally("as it connected");
        Socket closed = new Socket();
        closed.close();
        t.read(closed);
        t.count(() -> true);
        t.count(() -> {
            throw new IllegalStateException("closed channel"); // what Netty's epoll config throws
        });
        assertEquals("on for 1, off for 0, unreadable (closed) for 2 of 3 sockets (read as it connected)", t.describe());
    }

    @Test
    void beforeAnyConnectionItSaysSo() {
        assertEquals("not read yet (no socket connected)", new NoDelayTally("x").describe());
    }

    @Test
    void theSettingsGetItAsACopyInTheirOrder() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("b", "1");
        settings.put("a", "2");
        NoDelayTally t = new NoDelayTally("x");
        t.count(() -> true);
        Map<String, String> s = t.addTo(settings);
        assertEquals(List.of("b", "a", "tcpNoDelay"), List.copyOf(s.keySet()));
        assertEquals("on (read from the one socket x)", s.get("tcpNoDelay"));
        assertEquals(2, settings.size(), "the client's own settings are left as they were");
        assertThrows(UnsupportedOperationException.class, () -> s.put("c", "3"));
    }
}
