package clientbench.behaviour;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real clients against heads of each size, set beside the stub's count of heads sent: Reactor Netty reads a head up to
 * Netty's default of 8,192 bytes and fails every larger one at once, saying so; the JDK (384 KiB by default) reads them
 * all. Each head was sent, and read, once per request: the failures are the client's, not the stub's.
 */
@Timeout(60)
class LargeHeadersTest {

    /** HttpObjectDecoder's default maxHeaderSize, which Reactor Netty's HttpClient keeps. */
    private static final int NETTY_MAX_HEADER_SIZE = 8192;

    @Test
    void reactorFailsEveryHeadPastNettysLimitAndTheJdkReadsThemAll() throws Exception {
        Future<CaseResult> reactor;
        Future<CaseResult> jdk;
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            reactor = threads.submit(() -> BehaviourProbe.one("reactor", 1, new LargeHeaders()));
            jdk = threads.submit(() -> BehaviourProbe.one("jdk", 1, new LargeHeaders()));
        }
        List<Map<String, Object>> netty = bySize(reactor.get());
        List<Map<String, Object>> all = bySize(jdk.get());
        assertEquals(LargeHeaders.HEADER_BYTES.length, netty.size());
        assertTrue(LargeHeaders.HEADER_BYTES[0] <= NETTY_MAX_HEADER_SIZE && LargeHeaders.HEADER_BYTES[1] > NETTY_MAX_HEADER_SIZE,
                "the sizes straddle Netty's default");
        for (int i = 0; i < netty.size(); i++) {
            Map<String, Object> r = netty.get(i);
            Map<String, Object> j = all.get(i);
            int bytes = LargeHeaders.HEADER_BYTES[i];
            assertAll(bytes + ": " + r + " / " + j,
                    () -> assertEquals(bytes, number(r, "headerBytes")),
                    () -> assertEquals(LargeHeaders.REQUESTS, number(r, "stubSent"), "the stub sent each head"),
                    () -> assertEquals(LargeHeaders.REQUESTS, number(r, "stubReads"), "and read each request once"),
                    () -> assertEquals(LargeHeaders.REQUESTS, number(j, "stubSent")),
                    () -> assertEquals(Map.of("ok", LargeHeaders.REQUESTS), j.get("outcomes"), "within the JDK's 384 KiB"),
                    () -> assertEquals(bytes <= NETTY_MAX_HEADER_SIZE ? Map.of("ok", LargeHeaders.REQUESTS)
                            : Map.of("other", LargeHeaders.REQUESTS), r.get("outcomes"), "failed, not timed out"),
                    () -> assertTrue(bytes <= NETTY_MAX_HEADER_SIZE || said(r).contains("larger than "
                            + NETTY_MAX_HEADER_SIZE + " bytes"), "the client says why: " + said(r)));
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> bySize(CaseResult r) {
        assertNull(r.failure(), r.toString());
        assertEquals("as-shipped", r.tuning());
        return (List<Map<String, Object>>) r.figures().get("bySize");
    }

    private static int number(Map<String, Object> m, String name) {
        return ((Number) m.get(name)).intValue();
    }

    @SuppressWarnings("unchecked")
    private static String said(Map<String, Object> m) {
        return String.valueOf(((Map<String, String>) m.get("said")).get("other"));
    }
}
