package clientbench.harness;

import clientbench.harness.rule.Flag;
import clientbench.jmh.CapacityBenchmark;
import clientbench.plan.Profile;
import clientbench.plan.Shape;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.DoublePredicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The knee search against clients of known knee, each probe a pass, a miss (standing only second in a row at its rate)
 * or the JIT's miss: it brackets the knee within the precision, walks the shared ladder first, recovers from a lucky
 * pass, stops at its limits, and within the standard profile's budget converges where it can.
 */
class CapacitySearchTest {

    /** How a probe ended, as CapacityBenchmark.afterIteration sorts it. */
    enum Verdict { PASS, MISS, WARMING_MISS }

    /** Records a probe by the path CapacityBenchmark.afterIteration takes for its verdict. */
    static void probe(CapacitySearch s, double rate, Verdict v) {
        switch (v) {
            case PASS -> s.record(rate, true, null);
            case MISS -> s.recordMiss(rate, "latency p99 over the SLO");
            case WARMING_MISS -> s.recordWarmingMiss(rate, "flagged: gen (latency p99 over the SLO)");
        }
    }

    /** Probes until the search is done, a clean step response: every rate the oracle passes passes, every other misses. */
    private static CapacitySearch run(CapacitySearch s, DoublePredicate passes) {
        while (!s.done()) {
            double rate = s.nextRate();
            probe(s, rate, passes.test(rate) ? Verdict.PASS : Verdict.MISS);
        }
        return s;
    }

    /** Every failure stood as the second of two misses in a row at its rate, the first inconclusive. */
    private static void everyFailureWasProbedTwice(CapacitySearch s) {
        List<CapacitySearch.Probe> p = s.probes();
        for (int i = 0; i < p.size(); i++) {
            CapacitySearch.Probe x = p.get(i);
            if (!x.pass() && !x.inconclusive()) {
                assertTrue(i > 0 && p.get(i - 1).rate() == x.rate() && p.get(i - 1).inconclusive(), "probe " + i + ": " + p);
            }
        }
    }

    @Test
    void bracketsAMonotoneKneeToWithinThePrecisionAndConfirmsIt() {
        for (double knee : new double[] {1_234, 5_300, 7_999, 12_000, 31_000}) {
            CapacitySearch s = run(new CapacitySearch(1_000, 125, 64_000, 0.05, 20), r -> r <= knee);
            assertTrue(s.converged(), s::toString);
            assertTrue(s.knee() <= knee && knee < s.bracketHigh(), "true knee " + knee + ": " + s);
            assertTrue(s.bracketHigh() / s.knee() <= 1.05, s::toString);
            List<CapacitySearch.Probe> p = s.probes();
            assertEquals(s.knee(), p.get(p.size() - 1).rate(), 0.0, "the last probe confirms the knee");
            assertEquals(2, p.stream().filter(x -> x.rate() == s.knee() && x.pass()).count(), "the knee passed twice");
            everyFailureWasProbedTwice(s);
        }
    }

    @Test
    void everyClientWalksTheSameLadderUntilItsFirstFailure() {
        CapacitySearch weak = run(new CapacitySearch(1_000, 125, 64_000, 0.05, 20), r -> r <= 2_500);
        CapacitySearch strong = run(new CapacitySearch(1_000, 125, 64_000, 0.05, 20), r -> r <= 20_000);
        List<Double> weakRamp = weak.probes().stream().limit(3).map(CapacitySearch.Probe::rate).toList();
        List<Double> strongRamp = strong.probes().stream().limit(3).map(CapacitySearch.Probe::rate).toList();
        assertEquals(List.of(1_000.0, 2_000.0, 4_000.0), weakRamp);
        assertEquals(weakRamp, strongRamp);
        assertTrue(weak.onLadder(2_000) && !weak.onLadder(3_000), "the ladder is start x 2^k");
    }

    @Test
    void aLuckyPassAboveTheKneeIsCaughtByTheConfirmation() {
        // True knee 5,000; the first probe at 5,657 passes by luck, later ones at 5,657 and above fail.
        int[] lucky = {1};
        CapacitySearch s = run(new CapacitySearch(1_000, 125, 64_000, 0.05, 20), r -> {
            if (r > 5_600 && r < 5_700 && lucky[0]-- > 0) {
                return true;
            }
            return r <= 5_000;
        });
        assertTrue(s.converged(), s::toString);
        assertTrue(s.knee() <= 5_000 && 5_000 < s.bracketHigh(), s::toString);
    }

    @Test
    void aClientFailingAtTheStartRateIsFollowedDownTheLadder() {
        CapacitySearch s = run(new CapacitySearch(1_000, 125, 64_000, 0.05, 20), r -> r <= 300);
        assertEquals(List.of(1_000.0, 500.0, 250.0), s.probes().stream().map(CapacitySearch.Probe::rate).distinct().limit(3).toList());
        assertTrue(s.knee() <= 300 && 300 < s.bracketHigh(), s::toString);
    }

    @Test
    void stopsAtTheCeilingAndAtTheFloor() {
        CapacitySearch fast = run(new CapacitySearch(1_000, 125, 64_000, 0.05, 20), r -> true);
        assertEquals(64_000, fast.knee(), 0.0);
        assertTrue(Double.isInfinite(fast.bracketHigh()), "nothing failed");
        CapacitySearch hopeless = run(new CapacitySearch(1_000, 125, 64_000, 0.05, 20), r -> false);
        assertEquals(0, hopeless.knee(), 0.0);
        assertEquals(125, hopeless.bracketHigh(), 0.0);
        CapacitySearch offLadderFloor = run(new CapacitySearch(1_000, 600, 64_000, 0.05, 20), r -> false);
        assertEquals(List.of(1_000.0, 1_000.0, 600.0, 600.0), offLadderFloor.probes().stream().map(CapacitySearch.Probe::rate).toList(),
                "never below the floor, each miss confirmed");
    }

    @Test
    void aSpentBudgetLeavesTheBracketAsItStands() {
        CapacitySearch s = run(new CapacitySearch(1_000, 125, 64_000, 0.05, 6), r -> r <= 9_000);
        assertEquals(6, s.probes().size());
        assertEquals(16_000, s.bracketHigh(), 0.0, "the confirmed miss above the knee bounds it: " + s);
        assertFalse(s.converged(), s::toString);
        assertTrue(s.knee() <= 9_000 && 9_000 < s.bracketHigh(), s::toString);
    }

    @Test
    void badLimitsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new CapacitySearch(100, 125, 64_000, 0.05, 10));
        assertThrows(IllegalArgumentException.class, () -> new CapacitySearch(1_000, 125, 64_000, 0, 10));
        assertThrows(IllegalArgumentException.class, () -> new CapacitySearch(1_000, 125, 64_000, 0.05, 0));
    }
    @Test
    void aFlaggedMissInTheFirstProbeNoLongerCapsTheKnee() {
        // The standard run's h2 searches: the first probe after warm-up, at 1,000 req/s, missed flagged (gen, lag,
        // stub: both JVMs still compiling); one failure was final, so 8 of 11 knees came out at 958 req/s.
        // True knee 12,000; the first probe is a flagged miss, every later answer is true.
        CapacitySearch s = new CapacitySearch(1_000, 125, 64_000, 0.05, 20);
        s.recordMiss(s.nextRate(), "flagged: gen, lag, stub");
        assertEquals(1_000, s.nextRate(), 0.0, "the same rate again");
        assertTrue(Double.isInfinite(s.bracketHigh()), "no bound moved: " + s);
        run(s, r -> r <= 12_000);
        assertTrue(s.converged() && s.knee() <= 12_000 && 12_000 < s.bracketHigh() && s.knee() >= 12_000 / 1.05, s::toString);
        assertTrue(s.probes().get(0).inconclusive() && !s.probes().get(1).inconclusive(), s.probes().toString());
    }

    @Test
    void aSecondFlaggedMissInARowAtOneRateStandsAsAFailure() {
        CapacitySearch s = new CapacitySearch(1_000, 125, 64_000, 0.05, 20);
        s.record(1_000, true, "");
        s.recordMiss(2_000, "flagged: gen");
        s.recordMiss(2_000, "flagged: gen");
        assertEquals(2_000, s.bracketHigh(), 0.0, s::toString);
        assertEquals(1_000, s.knee(), 0.0);
        assertTrue(s.nextRate() < 2_000, "bisects below the failure: " + s.nextRate());
    }

    @Test
    void anUnflaggedMissIsConfirmedBeforeItBoundsTheSearch() {
        // A transient: 4,000 req/s missed unflagged by 15 us of p99 (one 25 ms stall). Standing at once, it would
        // cap a true knee of 8,000 at 3,830.
        CapacitySearch s = new CapacitySearch(1_000, 125, 64_000, 0.05, 20);
        s.record(1_000, true, "");
        s.record(2_000, true, "");
        s.recordMiss(4_000, "latency p99 10.0 ms > 10 ms");
        assertEquals(4_000, s.nextRate(), 0.0, "the same rate again: " + s);
        assertTrue(Double.isInfinite(s.bracketHigh()), "no bound moved: " + s);
        run(s, r -> r <= 8_000);
        assertTrue(s.converged() && s.knee() >= 8_000 / 1.05 && s.knee() <= 8_000, s::toString);
    }

    @Test
    void flaggedMissesAtDifferentRatesEachGetAnotherProbe() {
        CapacitySearch s = new CapacitySearch(1_000, 125, 64_000, 0.05, 20);
        s.recordMiss(1_000, "flagged: stub");
        s.record(1_000, true, "");
        s.recordMiss(2_000, "flagged: lag (latency p99 12.0 ms > 10 ms)");
        assertEquals(2_000, s.nextRate(), 0.0, "a flagged miss after a pass is retried too");
        s.record(2_000, true, "");
        assertEquals(2_000, s.knee(), 0.0, "an inconclusive miss never makes a rate 'failed': " + s);
        assertEquals(4_000, s.nextRate(), 0.0, "the ramp goes on");
    }

    @Test
    void aMissWhileTheJitStillCompilesNeverStands() {
        // 4,000 req/s missed twice (flagged gen, lag) with the client JVM's JIT at 96% and 45% of the window: the
        // warm-up's misses. True knee 8,000.
        CapacitySearch s = new CapacitySearch(1_000, 125, 64_000, 0.05, 20);
        s.record(1_000, true, "");
        s.record(2_000, true, "");
        for (int i = 0; i < 3; i++) {
            s.recordWarmingMiss(4_000, "flagged: gen, lag (latency p99 12.7 ms > 10 ms)");
            assertEquals(4_000, s.nextRate(), 0.0, "the same rate again, however often: " + s);
            assertTrue(Double.isInfinite(s.bracketHigh()), "no bound moved: " + s);
        }
        run(s, r -> r <= 8_000);
        assertTrue(s.converged() && s.knee() <= 8_000 && s.knee() >= 8_000 / 1.05 && 8_000 < s.bracketHigh(), s::toString);
        assertEquals(3, s.probes().stream().filter(CapacitySearch.Probe::warming).count(), s.probes().toString());
    }

    @Test
    void aWarmingMissIsNotTheFirstOfTwoFlaggedMisses() {
        // 16,000 req/s missed with the JIT at 11% of the window, then once flagged (a 29 ms GC pause): counted as a
        // pair, they would cap a true knee of 32,000 at 15,322.
        CapacitySearch s = new CapacitySearch(1_000, 125, 64_000, 0.05, 20);
        s.record(8_000, true, "");
        s.recordWarmingMiss(16_000, "flagged: gen, lag (latency p99 14.0 ms > 10 ms)");
        s.recordMiss(16_000, "flagged: gen, lag (latency p99 31.0 ms > 10 ms)");
        assertEquals(16_000, s.nextRate(), 0.0, "one flagged miss: the same rate again, " + s);
        assertTrue(Double.isInfinite(s.bracketHigh()), "no bound moved: " + s);
        // A warming miss between two flagged misses neither breaks the row nor counts in it.
        s.recordWarmingMiss(16_000, "flagged: gen, lag (latency p99 14.0 ms > 10 ms)");
        s.recordMiss(16_000, "flagged: gen, lag (latency p99 40.0 ms > 10 ms)");
        assertEquals(16_000, s.bracketHigh(), 0.0, "the second flagged miss stands: " + s);
        assertEquals(8_000, s.knee(), 0.0);
        // and a pass in between does break it
        CapacitySearch t = new CapacitySearch(1_000, 125, 64_000, 0.05, 20);
        t.recordMiss(1_000, "flagged: gen");
        t.record(1_000, true, "");
        t.recordMiss(1_000, "flagged: gen");
        assertTrue(Double.isInfinite(t.bracketHigh()), "a pass between two flagged misses: neither stands, " + t);
        assertEquals(1_000, t.nextRate(), 0.0);
    }

    @Test
    void theProbeBudgetBoundsASearchThatWaitsOnTheJit() {
        CapacitySearch s = new CapacitySearch(1_000, 125, 64_000, 0.05, 5);
        for (int i = 0; i < 5; i++) {
            assertFalse(s.done(), s::toString);
            s.recordWarmingMiss(s.nextRate(), "latency p99 30.0 ms > 10 ms");
        }
        assertTrue(s.done() && !s.converged(), s::toString);
        assertEquals(0, s.knee(), 0.0, "nothing passed, nothing failed: no knee, no bound");
        assertTrue(Double.isInfinite(s.bracketHigh()), s::toString);
    }

    /**
     * The search as each capacity shape of the standard profile runs it: its start, ceiling, precision and probes, and
     * the floor CapacityBenchmark.startTrial raises so that a probe of that length collects enough samples.
     */
    private static List<CapacitySearch> standardSearches(int probes) {
        List<CapacitySearch> out = new ArrayList<>();
        for (Shape shape : Profile.named("standard").shapes()) {
            if (!shape.benchmark().startsWith(CapacityBenchmark.class.getName() + ".")) {
                continue;
            }
            Map<String, String> p = shape.params();
            double floor = Math.max(Double.parseDouble(param("floorRate")),
                    1.2 * Flag.MIN_SAMPLES / shape.timings().measurementSeconds());
            out.add(new CapacitySearch(Math.max(Double.parseDouble(p.get("startRate")), floor), floor,
                    Double.parseDouble(p.get("ceilingRate")), Double.parseDouble(p.get("precision")),
                    probes > 0 ? probes : shape.timings().measurementIterations()));
        }
        assertFalse(out.isEmpty(), "standard has a knee search");
        return out;
    }

    /** A CapacityBenchmark parameter's default, from its annotation. */
    private static String param(String name) {
        try {
            return CapacityBenchmark.class.getField(name).getAnnotation(Param.class).value()[0];
        } catch (NoSuchFieldException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void theStandardBudgetConvergesOnACleanStepResponseAtTheseKnees() {
        for (double knee : new double[] {700, 1_234, 3_000, 5_300, 7_999, 12_000, 15_000, 25_000, 30_000, 60_000}) {
            for (CapacitySearch s : standardSearches(0)) {
                run(s, r -> r <= knee);
                assertTrue(s.converged(), "true knee " + knee + ": " + s);
                assertTrue(s.knee() <= knee && knee < s.bracketHigh() && s.bracketHigh() / s.knee() <= 1.05, "true knee " + knee + ": " + s);
                everyFailureWasProbedTwice(s);
            }
        }
        for (CapacitySearch s : standardSearches(0)) {
            run(s, r -> r <= 100_000);
            assertTrue(s.done() && s.knee() == s.ceiling(), "a knee past the ceiling is reported at it: " + s);
        }
    }

    /**
     * A finding, not a goal: with two probes per confirmed miss, a knee just above the rung 1,000 x 2^k takes k + 1 passes,
     * two misses at the rung above, four bisections that miss (eight probes) and a confirmation: k + 12, over 14 from
     * 8,000 req/s up. The bracket still holds the knee, and 18 probes reach it. Change this test with the budget.
     */
    @Test
    void theStandardBudgetDoesNotReachKneesJustAboveTheUpperRungs() {
        for (double knee : new double[] {8_100, 16_500, 19_500, 23_000, 33_000, 40_000, 50_000, 55_000}) {
            for (CapacitySearch s : standardSearches(0)) {
                run(s, r -> r <= knee);
                assertFalse(s.converged(), "the standard budget reaches knee " + knee + " after all (update this test): " + s);
                assertTrue(s.knee() <= knee && knee < s.bracketHigh(), "true knee " + knee + ": " + s);
            }
            for (CapacitySearch s : standardSearches(18)) {
                assertTrue(run(s, r -> r <= knee).converged(), "true knee " + knee + ", 18 probes: " + s);
            }
        }
    }
}
