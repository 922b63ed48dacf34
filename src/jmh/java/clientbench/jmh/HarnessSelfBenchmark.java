package clientbench.jmh;

import clientbench.adapters.Adapters;
import clientbench.harness.LoadSpec;
import clientbench.harness.TrialSpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Control;

import java.util.concurrent.TimeUnit;

/**
 * The harness measuring itself with {@code noop} (inline, no network): the floor under every client. {@code overhead}:
 * one unpaced request cycle, well under 250 ns/op. {@code paced}: the open model, {@code ok} equal to {@code rate}, no
 * {@code n.unsent}; {@code lag}, the pacer's lateness, is sharp on a CPU of its own, the kernel's wake-up when shared.
 */
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(1)
@Threads(1)
public class HarnessSelfBenchmark {

    /** One loop, no pacing: the trial lifecycle is {@link LoadState}'s, as every load benchmark's. */
    @State(Scope.Benchmark)
    public static class Unpaced extends LoadState {

        @Setup(Level.Trial)
        public void startTrial(BenchmarkParams params) throws Exception {
            start(params, hlog -> TrialSpec.parse(Adapters.NOOP, "", "http1", "1", "0", "5", "0",
                    LoadSpec.closed(1, TrialSpec.DRAIN_TIMEOUT), hlog));
        }
    }

    @State(Scope.Benchmark)
    public static class Paced extends LoadState {
        @Param("10000")
        public String rate;

        @Setup(Level.Trial)
        public void startTrial(BenchmarkParams params) throws Exception {
            LoadSpec spec = LoadSpec.open(TrialSpec.number("rate", rate), 64, LoadSpec.Backpressure.PARK,
                    TrialSpec.DRAIN_TIMEOUT);
            start(params, hlog -> TrialSpec.parse(Adapters.NOOP, "", "http1", "1", "0", "5", "0", spec, hlog));
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public boolean overhead(Unpaced state, Control control) {
        return state.generator.sendNext(() -> control.stopMeasurement);
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public boolean paced(Paced state, Control control) {
        return state.generator.sendNext(() -> control.stopMeasurement);
    }
}
