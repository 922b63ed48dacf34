package clientbench.jmh;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.infra.Control;

/**
 * What every load-shape benchmark shares: one call of {@link #request} schedules one request of the
 * window, and the trial's lifecycle is {@link LoadState}'s. A subclass is one lesson: its class comment,
 * its run settings, its parameters and a {@code @Setup(Level.Trial)} that starts the trial.
 */
public abstract class LoadBenchmark extends LoadState {

    /** The benchmark method's name, as JMH lists it after the class: {@code OpenLoopBenchmark.request}. */
    public static final String METHOD = "request";

    @Benchmark
    public boolean request(Control control) {
        return generator.sendNext(() -> control.stopMeasurement);
    }
}
