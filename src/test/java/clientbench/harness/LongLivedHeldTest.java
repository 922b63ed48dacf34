package clientbench.harness;

import clientbench.harness.record.IterationSnapshot;
import clientbench.harness.record.Probes;
import clientbench.testkit.Iterations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A long-lived trial reports what it asked for, held at the window's close and took to open; the stub's count proves it
 * took every connection. 200 requests of 3 s, one HTTP/1.1 connection each, a 2 s window: all are held at the close (no
 * early answers), and the JDK client opens them in tens of ms on 2 cores, so only a 20-fold slowdown hides one.
 */
@Timeout(90)
class LongLivedHeldTest {

    @Test
    void everyRequestAskedForIsHeldAndTheStubAcceptedEveryConnection() throws Exception {
        int asked = 200;
        Duration timeout = Duration.ofSeconds(5);
        TrialSpec spec = TrialSpec.parse("jdk", "", "http1", Integer.toString(asked), "3000", "5", "0",
                LoadSpec.closed(asked, TrialSpec.drainFor(timeout)), null).withLongLived(timeout);
        try (Trial trial = Trial.start(spec, false)) {
            IterationSnapshot s = Iterations.run(trial, 2_000, -30, true); // each request sent opens one more held
            Probes p = s.probes();
            assertEquals(asked, p.asked(), s.summary());
            assertEquals(asked, s.inFlightAtClose(), "held when the window closed: " + s.summary());
            assertEquals(asked, s.sent(), "none failed and was replaced: " + s.summary());
            assertEquals(asked, s.ok(), s.summary());
            assertTrue(s.inFlightPeakAfterNanos() > 0 && s.inFlightPeakAfterNanos() < 2_000_000_000L,
                    "opening ended inside the window: " + s.inFlightPeakAfterNanos() / 1e6 + " ms");
            // The stub's own counts: it accepted one connection per request and answered each.
            assertEquals(asked, p.connectionsOpened(), s.summary());
            assertEquals(asked, p.stubRequests(), s.summary());
            assertEquals(asked, p.connectionsPeak(), s.summary());
            assertTrue(p.heapBytes() > 0, "the heap held by the requests was measured: " + p.heapBytes());
        }
    }
}
