package clientbench.harness;

import clientbench.testkit.Iterations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A long-lived trial reports what it asked for, what it held when the window closed and how long opening
 * took, and the stub's own count of accepted connections proves it was offered and took every one.
 * 200 requests of 3 s each, one connection each (HTTP/1.1), a 2 s window: all 200 are sent at once and none
 * can return before 3 s (the stub never answers early), so all are held at the close; the JDK client opens
 * the 200 connections in tens of milliseconds on 2 cores, so the stub's peak counts them all unless a busy
 * machine slows that 20-fold.
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
