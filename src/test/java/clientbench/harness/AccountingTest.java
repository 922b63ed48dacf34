package clientbench.harness;

import clientbench.api.Outcome;
import clientbench.api.Request;
import clientbench.harness.record.IterationSnapshot;
import clientbench.testkit.Iterations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every scheduled request is counted exactly once per iteration, by the fake client's own counts (handed, completed by
 * outcome, never completed): in flight at the drain deadline is a timeout, and nothing completes into the next. This
 * thread is the pacer: only a 2 s stall outlasts the {@link #GRACE}, and a busy machine's late answers keep the counts.
 */
@Timeout(60)
class AccountingTest {
    static final Request GET = Request.get(URI.create("http://127.0.0.1:1"), "/", 5);
    /** A late-send grace no stall of a busy machine reaches (the default, 200 ms, is for measurements). */
    static final Duration GRACE = Duration.ofSeconds(2);

    /** The harness's counts agree with the client's own: sent, each outcome, and timeouts = the client's + the never-completed. */
    static void assertAgreesWithTheClient(IterationSnapshot s, FakeAdapter fake) {
        assertEquals(fake.sends(), s.sent(), "requests the client was handed: " + s.summary());
        for (Outcome o : Outcome.values()) {
            long expected = fake.completed(o) + (o == Outcome.TIMEOUT ? fake.neverCompleted() : 0);
            assertEquals(expected, s.count(o), o.label() + ": " + s.summary());
        }
        assertEquals(fake.neverCompleted(), s.expiredAtDrain(), s.summary());
    }

    @Test
    void mixedOutcomesAreCountedAsTheClientCompletedThem() {
        FakeAdapter fake = new FakeAdapter(i -> switch ((int) (i % 6)) {
            case 0 -> new FakeAdapter.Inline(Outcome.OK);
            case 1 -> new FakeAdapter.Late(Outcome.OK, 5);
            case 2 -> new FakeAdapter.Inline(Outcome.STATUS);
            case 3 -> new FakeAdapter.Late(Outcome.RESET, 3);
            case 4 -> new FakeAdapter.Never();
            default -> new FakeAdapter.Inline(Outcome.REJECTED);
        });
        LoadGenerator g = new LoadGenerator(fake, GET, LoadSpec.open(3_000, 10_000, LoadSpec.Backpressure.PARK,
                Duration.ofSeconds(1)).withLateSendGrace(GRACE));
        IterationSnapshot s = Iterations.run(g, 500);
        fake.close(); // after the drain: every Late completion fired within it (5 ms, the drain waits up to 1 s)
        assertAgreesWithTheClient(s, fake);
        assertEquals(1_500, s.scheduled(), s.summary());
        assertEquals(s.scheduled(), fake.sends() + s.unsent(), "scheduled = what the client was handed + unsent");
        assertEquals(0, s.unsent(), "nothing due in the window is left unsent");
        assertEquals(s.sent(), s.latency().getTotalCount(), "one latency per request sent (the expired at a lower bound)");
        assertEquals(s.sent(), s.lag().getTotalCount(), "one schedule lag per send");
    }

    @Test
    void drainCountsInFlightAsTimeoutAndLateCompletionsNeverLeakIntoTheNextIteration() throws Exception {
        // Iteration 1: every request completes 600 ms after it is sent; the drain ends 50 ms after the 100 ms
        // window: all are timeouts, unless this thread stalled for 450 ms past the drain's deadline.
        // Iteration 2 (1 s): every request completes inline. Iteration 1's late completions arrive during it.
        boolean[] slow = {true};
        FakeAdapter fake = new FakeAdapter(i -> slow[0] ? new FakeAdapter.Late(Outcome.OK, 600) : new FakeAdapter.Inline(Outcome.STATUS));
        LoadGenerator g = new LoadGenerator(fake, GET, LoadSpec.open(1_000, 10_000, LoadSpec.Backpressure.PARK, Duration.ofMillis(50)));
        IterationSnapshot first = Iterations.run(g, 100);
        long firstSends = fake.sends();
        assertEquals(firstSends, first.sent(), first.summary());
        assertEquals(first.sent(), first.expiredAtDrain());
        assertEquals(first.sent(), first.count(Outcome.TIMEOUT));
        assertEquals(0, first.ok());
        slow[0] = false;
        IterationSnapshot second = Iterations.run(g, 1_000); // the late OKs of the first land inside this one
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (fake.completed(Outcome.OK) < firstSends && System.nanoTime() < deadline) {
            Thread.sleep(10); // the first iteration's late completions, if any is still to come
        }
        fake.close();
        assertEquals(firstSends, fake.completed(Outcome.OK), "the client did complete the first iteration's requests");
        assertEquals(0, second.ok(), "a late completion from iteration 1 was counted in iteration 2");
        assertEquals(fake.sends() - firstSends, second.sent(), second.summary());
        assertEquals(fake.completed(Outcome.STATUS), second.count(Outcome.STATUS), second.summary());
        assertEquals(second.sent(), second.latency().getTotalCount());
    }

    @Test
    void aSecondCompletionOfOneRequestIsNeverCounted() {
        FakeAdapter fake = new FakeAdapter(i -> new FakeAdapter.Twice(Outcome.OK));
        LoadGenerator g = new LoadGenerator(fake, GET, LoadSpec.open(2_000, 100, LoadSpec.Backpressure.PARK, Duration.ofMillis(100)));
        IterationSnapshot s = Iterations.run(g, 200);
        fake.close();
        assertAgreesWithTheClient(s, fake);
        assertEquals(fake.sends(), s.duplicates(), "one duplicate per request");
    }

    @Test
    void dropPolicyCountsRequestsOverTheLimitAsDroppedAndNeverSendsThem() {
        FakeAdapter fake = new FakeAdapter(i -> new FakeAdapter.Never());
        LoadGenerator g = new LoadGenerator(fake, GET, LoadSpec.open(1_000, 10, LoadSpec.Backpressure.DROP,
                Duration.ofMillis(20)).withLateSendGrace(GRACE));
        IterationSnapshot s = Iterations.run(g, 300);
        fake.close();
        assertAgreesWithTheClient(s, fake);
        assertEquals(10, fake.sends(), "the client never saw more than the limit");
        assertEquals(300, s.scheduled(), s.summary());
        assertEquals(290, s.dropped(), s.summary());
        assertEquals(0, s.unsent(), "dropped by policy, not left behind by the pacer");
    }

    @Test
    void parkPolicyWaitsForAPermitAndCountsTheWaitInLatency() {
        // One request at a time, each taking 20 ms, offered at 200/s (every 5 ms): the pacer must park,
        // and callers' latency (from the intended start) grows while service time stays ~20 ms.
        FakeAdapter fake = new FakeAdapter(i -> new FakeAdapter.Late(Outcome.OK, 20));
        LoadGenerator g = new LoadGenerator(fake, GET, LoadSpec.open(200, 1, LoadSpec.Backpressure.PARK, Duration.ofSeconds(1)));
        IterationSnapshot s = Iterations.run(g, 500);
        fake.close();
        assertAgreesWithTheClient(s, fake);
        // One at a time for the window and its 200 ms late-send grace.
        assertTrue(s.sent() <= (500 + 200) / 20 + 2, s.summary());
        // The schedule still offered 200/s: what fell due but never went out is unsent, not hidden.
        assertEquals(100, s.scheduled(), s.summary());
        assertEquals(100 - fake.sends(), s.unsent(), s.summary());
        // About 20 ms each; the fake's timer would have to be 40 ms late on most requests to reach 60 ms.
        assertTrue(s.service().getValueAtPercentile(50) < 60_000, "service p50 us " + s.service().getValueAtPercentile(50));
        assertTrue(s.latency().getMaxValue() > 200_000, "latency max us " + s.latency().getMaxValue());
    }

    @Test
    void closedModelKeepsConcurrencyRequestsInFlightAndLabelsLatencyAsServiceTime() {
        // 4 loops; each loop's first request is answered after 100 ms, the next after 800 ms, in a 500 ms
        // window: each loop sends twice, and its second request is out when the window closes (answered in
        // the drain). Late answers change nothing here unless a loop's resend comes 400 ms late.
        FakeAdapter fake = new FakeAdapter(i -> new FakeAdapter.Late(Outcome.OK, i < 4 ? 100 : 800));
        LoadGenerator g = new LoadGenerator(fake, GET, LoadSpec.closed(4, Duration.ofSeconds(2)));
        IterationSnapshot s = Iterations.run(g, 500);
        fake.close();
        assertAgreesWithTheClient(s, fake);
        assertEquals(8, s.sent(), "each loop sent its next request when its first was answered: " + s.summary());
        assertEquals(8, s.ok(), s.summary());
        assertEquals(4, s.inFlightAtClose(), "every loop had its request out when the window closed");
        assertEquals(0, s.lag().getTotalCount(), "no schedule in the closed model");
        assertEquals(s.service().getTotalCount(), s.latency().getTotalCount());
    }
}
