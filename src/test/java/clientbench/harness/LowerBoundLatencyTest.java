package clientbench.harness;

import clientbench.api.Outcome;
import clientbench.harness.record.IterationSnapshot;
import clientbench.testkit.Iterations;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code latency} holds every caller, the ones that never got an answer too (at a lower bound), so the
 * worst waits are in its tail; {@code latencyOk} holds the callers that got a success; the body lengths
 * clients report are kept.
 */
@Timeout(60)
class LowerBoundLatencyTest {

    @Test
    void unsentRequestsWaitedAtLeastUntilTheWindowClosed() {
        // As in ExactWindowTest: one permit, 134 ms per request, 20 due in 200 ms; 3 sent, 17 unsent when the
        // 200 ms grace ends at 400 ms. The unsent were due at 30-190 ms: each waited at least 210 ms.
        FakeAdapter fake = new FakeAdapter(i -> new FakeAdapter.Late(Outcome.OK, ExactWindowTest.LATE_MILLIS));
        LoadGenerator g = new LoadGenerator(fake, AccountingTest.GET,
                LoadSpec.open(100, 1, LoadSpec.Backpressure.PARK, Duration.ofSeconds(1)));
        IterationSnapshot s = Iterations.run(g, 200, -30);
        fake.close();
        assertEquals(17, s.unsent(), s.summary());
        assertEquals(s.scheduled(), s.latency().getTotalCount(), "every caller the window scheduled is in latency");
        assertTrue(s.latency().getCountBetweenValues(200_000, Long.MAX_VALUE / 2) >= 17,
                "the unsent are in the tail: " + s.latency().getCountBetweenValues(200_000, Long.MAX_VALUE / 2));
        assertEquals(3, s.latencyOk().getTotalCount(), "latency.ok holds the successes only");
    }

    @Test
    void requestsStillOutAtTheDrainDeadlineWaitedAtLeastTheDrain() {
        FakeAdapter fake = new FakeAdapter(i -> i % 2 == 0 ? new FakeAdapter.Never() : new FakeAdapter.Inline(Outcome.OK));
        LoadGenerator g = new LoadGenerator(fake, AccountingTest.GET,
                LoadSpec.open(500, 1_000, LoadSpec.Backpressure.PARK, Duration.ofMillis(80)));
        IterationSnapshot s = Iterations.run(g, 200, -30);
        fake.close();
        assertEquals(fake.neverCompleted(), s.expiredAtDrain(), s.summary());
        assertEquals(s.sent(), s.latency().getTotalCount(), s.summary());
        assertEquals(fake.completed(Outcome.OK), s.latencyOk().getTotalCount(), s.summary());
        // The never-completed (latency less latency.ok: each success is in both, at the same value) were all sent
        // before the window's close: each waited at least the 80 ms drain. A success may wait that long too, on a
        // host that made the pacer late; that is lag, not what this checks.
        Histogram never = s.latency().copy();
        never.subtract(s.latencyOk());
        assertEquals(fake.neverCompleted(), never.getTotalCount(), s.summary());
        assertEquals(fake.neverCompleted(), never.getCountBetweenValues(80_000, Long.MAX_VALUE / 2), s.summary());
    }

    @Test
    void failuresAreInLatencyButNotInLatencyOk() {
        FakeAdapter fake = new FakeAdapter(i -> new FakeAdapter.Inline(i % 3 == 0 ? Outcome.STATUS : Outcome.OK));
        LoadGenerator g = new LoadGenerator(fake, AccountingTest.GET,
                LoadSpec.open(1_000, 64, LoadSpec.Backpressure.PARK, Duration.ofSeconds(1)));
        IterationSnapshot s = Iterations.run(g, 300, -30);
        fake.close();
        assertEquals(fake.completed(Outcome.OK), s.latencyOk().getTotalCount(), s.summary());
        assertEquals(fake.completed(Outcome.OK) + fake.completed(Outcome.STATUS), s.latency().getTotalCount(), s.summary());
    }

    @Test
    void theShortestAndLongestBodyReportedAreKept() {
        FakeAdapter fake = new FakeAdapter(i -> new FakeAdapter.Body(100 + i % 7));
        LoadGenerator g = new LoadGenerator(fake, AccountingTest.GET,
                LoadSpec.open(1_000, 64, LoadSpec.Backpressure.PARK, Duration.ofSeconds(1)));
        IterationSnapshot s = Iterations.run(g, 100, -30);
        fake.close();
        assertEquals(100, s.bodyBytesMin());
        assertEquals(106, s.bodyBytesMax());
    }
}
