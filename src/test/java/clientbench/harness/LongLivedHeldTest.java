package clientbench.harness;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A long-lived trial reports what it asked for, what it held when the window closed and how long opening
 * took, and the stub's own count of accepted connections proves it was offered and took every one.
 * 200 requests of 2.5 s each, one connection each (HTTP/1.1), a 1 s window: the JDK client opens 200
 * connections in well under a second on 2 cores, so all 200 are held at the close and none has returned.
 */
@Timeout(90)
class LongLivedHeldTest {

    @Test
    void everyRequestAskedForIsHeldAndTheStubAcceptedEveryConnection() throws Exception {
        int asked = 200;
        Duration timeout = Duration.ofSeconds(5);
        TrialSpec spec = TrialSpec.parse("jdk", "", "http1", Integer.toString(asked), "2500", "5", "0",
                LoadSpec.closed(asked, TrialSpec.drainFor(timeout)), null).withLongLived(timeout);
        try (Trial trial = Trial.start(spec, false)) {
            trial.beginIteration(1_000_000_000L);
            long end = System.nanoTime() + 970_000_000L;
            while (trial.sendNext(() -> System.nanoTime() >= end)) {
                // each call opens one more long request
            }
            IterationSnapshot s = trial.endIteration(true);
            Probes p = s.probes();
            assertEquals(asked, p.asked(), s.summary());
            assertEquals(asked, s.inFlightAtClose(), "held when the window closed: " + s.summary());
            assertEquals(asked, s.sent(), "none failed and was replaced: " + s.summary());
            assertEquals(asked, s.ok(), s.summary());
            assertTrue(s.inFlightPeakAfterNanos() > 0 && s.inFlightPeakAfterNanos() < 1_000_000_000L,
                    "opening ended inside the window: " + s.inFlightPeakAfterNanos() / 1e6 + " ms");
            // The stub's own counts: it accepted one connection per request and answered each.
            assertEquals(asked, p.connectionsOpened(), s.summary());
            assertEquals(asked, p.stubRequests(), s.summary());
            assertEquals(asked, p.connectionsPeak(), s.summary());
            assertTrue(p.heapBytes() > 0, "the heap held by the requests was measured: " + p.heapBytes());
        }
    }
}
