package clientbench.stub;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** One connection serves many requests, and pipelined answers keep request order even when one is delayed. */
@Timeout(30)
class KeepAliveAndPipeliningTest {
    @RegisterExtension
    static final StubExtension stub = new StubExtension();

    @Test
    void oneConnectionServesManyRequests() throws IOException {
        // The stub's own counts since a mark, not its open connections now: another test's connection of this
        // class may still be closing on the stub's event loop.
        long requestsBefore = stub.server().mark().requests();
        try (RawHttp c = new RawHttp(stub.port())) {
            for (int i = 0; i < 1_000; i++) {
                assertEquals(200, c.send(RawHttp.get("/?i=" + i)).read().status());
            }
            StubServer.Stats window = stub.server().stats();
            assertEquals(1, window.usedConnections(), window.toJson());
            assertEquals(1_000, window.requests() - requestsBefore, window.toJson());
        }
    }

    @Test
    void pipelinedAnswersKeepRequestOrderBehindADelayedOne() throws IOException {
        try (RawHttp c = new RawHttp(stub.port())) {
            c.send(RawHttp.get("/?delayMs=200&bytes=1") + RawHttp.get("/?bytes=2") + RawHttp.get("/?delayMs=50&bytes=3")
                    + RawHttp.get("/?bytes=4"));
            for (int expected = 1; expected <= 4; expected++) {
                assertEquals(expected, c.read().body().length);
            }
        }
    }

    @Test
    void connectionCloseIsHonoured() throws IOException {
        try (RawHttp c = new RawHttp(stub.port())) {
            RawHttp.Response r = c.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").read();
            assertEquals("close", r.header("connection"));
            assertEquals(-1, c.readByte());
        }
    }
}
