package clientbench.stub;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The stub's own counts, which the harness sets beside the client's: connections accepted, open, the
 * peak since a mark, the connections that carried a request since the mark, and requests answered.
 * Each is checked against what this test itself did, over raw sockets.
 */
@Timeout(30)
class StubCountsTest {
    @RegisterExtension
    final StubExtension fresh = new StubExtension();

    @Test
    void countsConnectionsAndRequestsBetweenMarks() throws Exception {
        StubServer stub = fresh.server();
        StubServer.Stats start = stub.mark();
        assertEquals(0, start.accepted());
        List<RawHttp> open = new ArrayList<>();
        try {
            for (int i = 0; i < 5; i++) {
                open.add(new RawHttp(stub.port()));
            }
            for (int i = 0; i < 3; i++) { // three of the five carry requests, one of them two
                assertEquals(200, open.get(i).send(RawHttp.get("/")).read().status());
            }
            assertEquals(200, open.get(0).send(RawHttp.get("/")).read().status());
            awaitOpen(stub, 5);
            StubServer.Stats window = stub.stats();
            assertEquals(5, window.accepted());
            assertEquals(5, window.open());
            assertEquals(5, window.peakOpen());
            assertEquals(3, window.usedConnections());
            assertEquals(4, window.requests());
            assertEquals(0, window.http2Requests());
        } finally {
            for (RawHttp c : open) {
                c.close();
            }
        }
        awaitOpen(stub, 0);
        StubServer.Stats before = stub.mark(); // what the first window counted, then a new one
        assertEquals(5, before.peakOpen());
        StubServer.Stats after = stub.stats();
        assertEquals(0, after.peakOpen(), "the peak restarts from the connections open at the mark");
        assertEquals(0, after.usedConnections());
        assertEquals(5, after.accepted(), "accepted counts since start");
    }

    private static void awaitOpen(StubServer stub, int n) throws InterruptedException {
        long deadline = System.nanoTime() + 15_000_000_000L; // a deadline a passing run never nears: closes take milliseconds
        while (stub.openConnections() != n && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(n, stub.openConnections(), "open connections at the stub");
    }
}
