package clientbench.jmh;

import clientbench.api.Outcome;
import clientbench.harness.rule.Flag;
import clientbench.harness.record.IterationSnapshot;
import clientbench.harness.LoadGenerator;
import clientbench.harness.record.Probes;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.Result;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each validity flag is raised exactly where its rule says, from one iteration's figures. */
class HarnessProfilerTest {

    private static final long WINDOW_NANOS = 1_000_000_000L;

    /** One second, {@code samples} requests, latency p99 and lag p99 as given, the JVM's CPU share as given. */
    private static IterationSnapshot iteration(long samples, long latencyMicros, long lagMicros, double cpuShare) {
        return iteration(samples, latencyMicros, lagMicros, cpuShare, 0.2);
    }

    private static IterationSnapshot iteration(long samples, long latencyMicros, long lagMicros, double cpuShare,
                                               double stubCpuShare) {
        return iteration(true, samples, latencyMicros, lagMicros, cpuShare, stubCpuShare);
    }

    private static IterationSnapshot iteration(boolean openModel, long samples, long latencyMicros, long lagMicros,
                                               double cpuShare, double stubCpuShare) {
        return iteration(openModel, samples, latencyMicros, lagMicros, cpuShare, stubCpuShare, 0.01);
    }

    private static IterationSnapshot iteration(boolean openModel, long samples, long latencyMicros, long lagMicros,
                                               double cpuShare, double stubCpuShare, double stealShare) {
        Histogram latency = LoadGenerator.newHistogram();
        Histogram lag = LoadGenerator.newHistogram();
        latency.recordValueWithCount(latencyMicros, samples);
        lag.recordValueWithCount(lagMicros, samples);
        long[] outcomes = new long[Outcome.values().length];
        outcomes[Outcome.OK.ordinal()] = samples;
        return new IterationSnapshot(openModel, Double.NaN, WINDOW_NANOS, 0, samples, samples, 0, 0, outcomes, 0, 0, latency,
                latency.copy(), latency.copy(), lag, 0, 0, 0, (long) (cpuShare * 2 * WINDOW_NANOS), -1, 0, 5, 5,
                new Probes(2, -1, -1, -1, -1, -1, -1, stubCpuShare, -1, -1, -1, -1, -1, -1, stealShare, -1, -1, -1));
    }

    private static Map<String, Double> flags(IterationSnapshot s) {
        return HarnessProfiler.flags(s).stream().collect(Collectors.toMap(Result::getLabel, Result::getScore));
    }

    @Test
    void aQuietIterationRaisesNoFlag() {
        Map<String, Double> f = flags(iteration(2_000, 1_000, 50, 0.30));
        assertEquals(0.0, f.get(Flag.GENERATOR.metric()));
        assertEquals(0.0, f.get(Flag.LAG.metric()));
        assertEquals(0.0, f.get(Flag.SAMPLES.metric()));
        assertEquals(0.30, f.get("cpu.share"), 1e-9);
    }

    @Test
    void aSaturatedClientJvmRaisesGenerator() {
        assertEquals(1.0, flags(iteration(2_000, 1_000, 50, 0.95)).get(Flag.GENERATOR.metric()));
        assertEquals(0.0, flags(iteration(2_000, 1_000, 50, 0.85)).get(Flag.GENERATOR.metric()));
    }

    @Test
    void aClosedLoopThatSaturatesTheClientJvmIsNotFlagged() {
        // The closed model runs the client flat out by design: the CPU is the limit it measures.
        assertEquals(0.0, flags(iteration(false, 2_000, 1_000, 0, 0.99, 0.2)).get(Flag.GENERATOR.metric()));
    }

    @Test
    void aTenthOfTheMachineGivenToOtherGuestsRaisesSteal() {
        // A closed loop too: the host's steal is nobody's design.
        assertEquals(1.0, flags(iteration(true, 2_000, 1_000, 50, 0.3, 0.2, 0.12)).get(Flag.STEAL.metric()));
        assertEquals(1.0, flags(iteration(false, 2_000, 1_000, 0, 0.99, 0.2, 0.10)).get(Flag.STEAL.metric()));
        assertEquals(0.0, flags(iteration(true, 2_000, 1_000, 50, 0.3, 0.2, 0.09)).get(Flag.STEAL.metric()));
        assertEquals(0.09, flags(iteration(true, 2_000, 1_000, 50, 0.3, 0.2, 0.09)).get("host.steal"), 1e-12);
        Map<String, Double> unknown = flags(iteration(true, 2_000, 1_000, 50, 0.3, 0.2, -1));
        assertFalse(unknown.containsKey(Flag.STEAL.metric()) || unknown.containsKey("host.steal"), "not read, not flagged");
    }

    @Test
    void aBusyStubRaisesStub() {
        assertEquals(1.0, flags(iteration(2_000, 1_000, 50, 0.3, 0.75)).get(Flag.STUB.metric()));
        assertEquals(0.0, flags(iteration(2_000, 1_000, 50, 0.3, 0.65)).get(Flag.STUB.metric()));
        assertFalse(flags(iteration(2_000, 1_000, 50, 0.3, -1)).containsKey(Flag.STUB.metric()), "no stub, no flag");
    }

    @Test
    void lagAboveATenthOfLatencyAndAMillisecondRaisesLag() {
        assertEquals(1.0, flags(iteration(2_000, 20_000, 2_100, 0.3)).get(Flag.LAG.metric()));
        assertEquals(0.0, flags(iteration(2_000, 20_000, 1_900, 0.3)).get(Flag.LAG.metric()), "under a tenth");
        assertEquals(1.0, flags(iteration(2_000, 5_000, 1_100, 0.3)).get(Flag.LAG.metric()));
        assertEquals(0.0, flags(iteration(2_000, 5_000, 900, 0.3)).get(Flag.LAG.metric()), "under the 1 ms floor");
        assertEquals(0.0, flags(iteration(2_000, 1_000, 150, 0.3)).get(Flag.LAG.metric()), "a parked pacer's wake-up");
    }

    @Test
    void fewerThanAThousandSamplesRaisesSamples() {
        assertEquals(1.0, flags(iteration(999, 1_000, 50, 0.3)).get(Flag.SAMPLES.metric()));
        assertEquals(0.0, flags(iteration(1_000, 1_000, 50, 0.3)).get(Flag.SAMPLES.metric()));
    }

    @Test
    void measuredIterationsMoreThanTwentyPercentApartAreUnsteady() {
        assertFalse(Flag.unsteady(List.of(1_000.0)));
        assertFalse(Flag.unsteady(List.of(1_000.0, 850.0, 990.0)));
        assertTrue(Flag.unsteady(List.of(1_000.0, 790.0)));
    }
}
