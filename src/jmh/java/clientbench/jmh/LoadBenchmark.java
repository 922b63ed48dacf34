package clientbench.jmh;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Control;
import org.openjdk.jmh.infra.IterationParams;

/**
 * What every load-shape benchmark shares: one call of {@link #request} schedules one request, and each
 * iteration begins and drains through {@link LoadState}. A subclass is one lesson: its class comment,
 * its run settings, its parameters and a {@code @Setup(Level.Trial)} that starts the trial.
 */
public abstract class LoadBenchmark {

    /** The benchmark method's name, as JMH lists it after the class: {@code OpenLoopBenchmark.request}. */
    public static final String METHOD = "request";

    protected final LoadState load = new LoadState();

    @Setup(Level.Iteration)
    public void beginIteration(IterationParams iteration) {
        load.beginIteration(iteration);
    }

    @Benchmark
    public boolean request(Control control) {
        return load.sendNext(() -> control.stopMeasurement);
    }

    @TearDown(Level.Iteration)
    public void endIteration() {
        load.endIteration();
    }

    @TearDown(Level.Trial)
    public void stopTrial() {
        load.stop();
    }
}
