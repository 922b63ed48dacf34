package clientbench.harness;

import clientbench.api.Outcome;
import clientbench.harness.record.IterationSnapshot;
import clientbench.testkit.Iterations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The measured window is {@code [t0, t0 + iteration time)} whenever the driver's stop comes: after an early stop the
 * rest is still sent, a late stop does not stretch it. This thread is the pacer: with {@link AccountingTest#GRACE} only
 * a 2 s stall leaves a request unsent; the test of the grace itself keeps the default and leaves 130 ms for lateness.
 */
@Timeout(60)
class ExactWindowTest {

    static final int RATE = 2_000;
    static final long WINDOW_MILLIS = 500;
    /** ceil(rate x window): the requests due before the window's end. */
    static final long DUE = RATE * WINDOW_MILLIS / 1_000;
    /**
     * With one permit, 100 req/s over 200 ms and the 200 ms grace: the answer delay that lets exactly three
     * requests out (two answers fit in the 400 ms with 130 ms to spare, three cannot: 3 x 134 > 400).
     */
    static final long LATE_MILLIS = 134;

    private static LoadGenerator inlineOk(FakeAdapter fake) {
        return new LoadGenerator(fake, AccountingTest.GET, LoadSpec.open(RATE, 64, LoadSpec.Backpressure.PARK,
                Duration.ofSeconds(1)).withLateSendGrace(AccountingTest.GRACE));
    }

    @Test
    void aStopThirtyMillisecondsBeforeTheWindowsEndStillSendsEveryRequestDueInIt() {
        FakeAdapter fake = new FakeAdapter(i -> new FakeAdapter.Inline(Outcome.OK));
        IterationSnapshot s = Iterations.run(inlineOk(fake), WINDOW_MILLIS, -30);
        fake.close();
        // Stopping the schedule at the driver's stop would leave about 60 requests unsent or unscheduled.
        assertEquals(DUE, s.scheduled(), 1, s.summary());
        assertEquals(0, s.unsent(), s.summary());
        assertEquals(s.scheduled(), fake.sends(), "every request due in the window reached the client");
        assertEquals(fake.completed(Outcome.OK), s.ok(), s.summary());
        assertEquals(WINDOW_MILLIS * 1_000_000, s.windowNanos(), "rates are over the window's exact length");
        assertEquals(RATE, s.perSecond(s.ok()), 2.0, s.summary());
    }

    @Test
    void aStopAfterTheWindowsEndSchedulesNothingPastItAndParksMeanwhile() {
        FakeAdapter fake = new FakeAdapter(i -> new FakeAdapter.Inline(Outcome.OK));
        LoadGenerator g = inlineOk(fake);
        long cpuBefore = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        IterationSnapshot s = Iterations.run(g, WINDOW_MILLIS, 300);
        long cpuMillis = (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpuBefore) / 1_000_000;
        fake.close();
        // A window stretched to the stop would schedule 600 more.
        assertEquals(DUE, s.scheduled(), 1, s.summary());
        assertEquals(s.scheduled(), fake.sends(), s.summary());
        assertEquals(0, s.unsent(), s.summary());
        // Pacing 1,000 requests costs tens of ms; spinning through the 300 ms after the window would cost
        // about 300 ms more of this thread's CPU time.
        assertTrue(cpuMillis < 200, "the driving thread used " + cpuMillis + " ms of CPU in an 800 ms run");
    }

    @Test
    void aSustainableRateSchedulesExactlyRateTimesWindowWithNothingUnsent() {
        // Answers after 5 ms from another thread, as a client does: about 10 in flight at once.
        FakeAdapter fake = new FakeAdapter(i -> new FakeAdapter.Late(Outcome.OK, 5));
        LoadGenerator g = new LoadGenerator(fake, AccountingTest.GET,
                LoadSpec.open(RATE, 64, LoadSpec.Backpressure.PARK, Duration.ofSeconds(1)).withLateSendGrace(AccountingTest.GRACE));
        for (int iteration = 0; iteration < 3; iteration++) {
            IterationSnapshot s = Iterations.run(g, WINDOW_MILLIS, -30);
            assertEquals(DUE, s.scheduled(), 1, s.summary());
            assertEquals(0, s.unsent(), s.summary());
            assertEquals(0, s.dropped(), s.summary());
            assertEquals(s.sent(), s.ok(), s.summary());
        }
        assertEquals(3 * DUE, fake.completed(Outcome.OK), 3, "the client completed every request sent");
        fake.close();
    }

    @Test
    void aRequestDueInTheWindowGoesOutLateWithinTheGraceAndIsUnsentAfterIt() {
        // One permit, each answer 134 ms after its send, 20 due over 200 ms: sends at about 0, 134 and 268 ms (within
        // the 200 ms grace); the next permit, at 402 ms at the earliest, is past the grace, so 17 are unsent. A busy
        // machine may delay the two answers and resends by 130 ms in all.
        FakeAdapter fake = new FakeAdapter(i -> new FakeAdapter.Late(Outcome.OK, LATE_MILLIS));
        LoadGenerator g = new LoadGenerator(fake, AccountingTest.GET,
                LoadSpec.open(100, 1, LoadSpec.Backpressure.PARK, Duration.ofSeconds(1)));
        IterationSnapshot s = Iterations.run(g, 200, -30);
        fake.close();
        assertEquals(20, s.scheduled(), s.summary());
        assertEquals(3, s.sent(), s.summary());
        assertEquals(17, s.unsent(), s.summary());
        assertEquals(3, s.ok(), s.summary());
        // The third was due at 20 ms and went out at 268 ms or later: its lag shows it.
        assertTrue(s.lag().getMaxValue() > 200_000, "lag max us " + s.lag().getMaxValue());
    }
}
