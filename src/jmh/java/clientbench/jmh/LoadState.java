package clientbench.jmh;

import clientbench.harness.CpuLayout;
import clientbench.harness.record.IterationSnapshot;
import clientbench.harness.LoadGenerator;
import clientbench.harness.Trial;
import clientbench.harness.TurnTaker;
import clientbench.harness.TrialSpec;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The lifecycle every state shares: {@code @Setup(Level.Trial)} calls {@link #start}; each iteration's window is
 * closed, probed, drained and given to {@link HarnessProfiler}; methods send via {@link #generator}. Fork properties:
 * {@code clientbench.hlog.dir}, {@code .pin} (default true), {@code .shape}, {@code .round}, {@code .variant}.
 */
public abstract class LoadState {
    // The launcher's flags that say where a fork's trial belongs, which its record keeps: its logs' folder, the run's
    // shape, the round it ran in, and in an upgrade's run which version of the client it is.
    public static final String HLOG_DIR = "clientbench.hlog.dir";
    public static final String SHAPE = "clientbench.shape";
    public static final String ROUND = "clientbench.round";
    public static final String VARIANT = "clientbench.variant";
    private static boolean warned;

    protected Trial trial;
    protected LoadGenerator generator;
    /** In an interleaved set, the turn this fork holds to send; null when it runs alone. */
    protected TurnTaker turn;
    private int block;
    /** JMH's warm-up iterations: an interleaved fork runs them in its settle turn, before it first waits. */
    protected int jmhWarmups;
    private boolean measured;
    /** The iteration running is JMH's last warm-up: the kernel counts in it, and an interleaved fork's turn ends. */
    private boolean lastWarmup;
    private boolean lastMeasured;
    private int measuredSoFar;
    private int warmupsSoFar;

    /** Starts the trial of {@code spec} (built for this trial's .hlog path), recording what JMH runs. */
    protected final void start(BenchmarkParams params, TrialSpecFactory spec) throws Exception {
        Path hlog = Path.of(System.getProperty(HLOG_DIR, ".")).resolve(hlogName(params));
        Map<String, Object> about = new LinkedHashMap<>();
        about.put("benchmark", params.getBenchmark());
        about.put("mode", params.getMode().shortLabel());
        Map<String, String> jmhParams = new LinkedHashMap<>();
        for (String key : params.getParamsKeys()) {
            jmhParams.put(key, params.getParam(key));
        }
        about.put("params", jmhParams);
        jmhWarmups = params.getWarmup().getCount();
        about.put("shape", System.getProperty(SHAPE, ""));
        about.put("round", Integer.getInteger(ROUND, 1)); // Schedule: the round this fork ran in
        String variant = System.getProperty(VARIANT, "");
        if (!variant.isBlank()) {
            about.put("client", variant); // one version of the client in an upgrade's run; params.client is the adapter
        }
        boolean interleaved = !System.getProperty(TurnTaker.PROPERTY, "").isBlank();
        if (interleaved) {
            about.put("interleaved", true); // its measured windows alternate with the set's other clients', by block
        }
        trial = Trial.start(spec.create(hlog), Boolean.parseBoolean(System.getProperty(CpuLayout.PIN, "true")), about);
        generator = trial.generator();
        try {
            String name = variant.isBlank() ? jmhParams.getOrDefault("client", "") : variant;
            turn = TurnTaker.fromProperty(name, trial.stubPid());
        } catch (IOException | RuntimeException e) {
            stopTrial(); // JMH runs no tear-down after a failed set-up: the stub's JVM would outlive the fork
            throw e;
        }
    }

    @Setup(Level.Iteration)
    public void beginIteration(IterationParams iteration) {
        measured = iteration.getType() == IterationType.MEASUREMENT;
        lastMeasured = measured && ++measuredSoFar == iteration.getCount();
        lastWarmup = !measured && ++warmupsSoFar == iteration.getCount();
        beforeIteration(measured);
        if (turn != null && measured) {
            // The turn opens with unmeasured windows at the same load until the client is quiet again (connections,
            // JIT); the kernel counts its system calls there, never in the measured window.
            block = turn.await("window");
            resume();
        }
        // The kernel counts in JMH's last warm-up iteration, never in a measured window: counting costs the client
        // ~0.45 us of CPU per system call (apache at 4,000 req/s: 89 us of CPU per request counted, 79 us not),
        // which CPU per request would then charge twice to the clients that make the most system calls.
        trial.beginIteration(iteration.getTime().convertTo(TimeUnit.NANOSECONDS), lastWarmup);
    }

    @TearDown(Level.Iteration)
    public void endIteration() {
        Map<String, Object> facts = new LinkedHashMap<>();
        IterationSnapshot s = trial.endIteration(measured, snapshot -> {
            facts.putAll(trial.facts(snapshot));
            if (measured) {
                facts.putAll(trial.kernelPerRequest()); // the warm-up's counts, as JMH metrics of the measured windows
            }
            facts.putAll(afterIteration(snapshot, measured, lastMeasured));
            if (turn != null) {
                facts.put("block", block);
            }
            return facts;
        });
        if (turn != null && (measured || lastWarmup)) {
            turn.done(); // after a measured window, or JMH's warm-up, which ran in the settle turn
        }
        HarnessProfiler.publish(s, facts, oncePerFork());
        if (!HarnessProfiler.active && !warned) {
            warned = true;
            System.err.println("clientbench: no -prof clientbench.jmh.HarnessProfiler: the JSON will lack ok/failures/"
                    + "latency percentiles (the .hlog files still have them). Last iteration: " + s.summary());
        }
    }

    /** In an interleaved set, the unmeasured window that opens each turn, at the measured load. */
    protected void resume() {
        throw new IllegalStateException(getClass().getSimpleName() + " runs alone, never in an interleaved set");
    }

    /** Before each iteration's window: a subclass may set the generator's rate here. */
    protected void beforeIteration(boolean measured) {
    }

    /**
     * After each iteration's drain: the subclass's facts by name, all into the trial's JSON; numbers also become JMH
     * secondary metrics (averaged, so a fact given once per fork is that fork's value).
     * @param last the fork's last measured iteration
     */
    protected Map<String, ?> afterIteration(IterationSnapshot s, boolean measured, boolean last) {
        return Map.of();
    }

    /** The facts of {@link #afterIteration} a fork gives once (its last measured iteration), scored over forks. */
    protected java.util.Set<String> oncePerFork() {
        return java.util.Set.of();
    }

    @TearDown(Level.Trial)
    public void stopTrial() {
        if (turn != null) {
            try {
                turn.close();
            } catch (IOException ignored) {
                // the turn passer is gone: nothing waits for this fork
            }
            turn = null;
        }
        if (trial != null) {
            trial.close();
            trial = null;
            generator = null;
        }
    }

    /**
     * E.g. {@code OpenLoopBenchmark.request-jdk-5f0e2a1c-1234.hlog}: the benchmark, the client, a hash of every
     * JMH parameter (sorted) and the fork's pid. The trial's JSON beside it lists the parameters themselves:
     * readers take them from there, never from the name, which must stay short (a file name holds 255 bytes).
     */
    static String hlogName(BenchmarkParams params) {
        String benchmark = params.getBenchmark();
        benchmark = benchmark.substring(benchmark.lastIndexOf('.', benchmark.lastIndexOf('.') - 1) + 1);
        TreeMap<String, String> p = new TreeMap<>();
        for (String key : params.getParamsKeys()) {
            p.put(key, params.getParam(key));
        }
        String client = p.getOrDefault("client", "").replaceAll("[^A-Za-z0-9._-]", "_");
        return String.format("%s-%s-%08x-%d.hlog", benchmark, client.isEmpty() ? "none" : client, p.toString().hashCode(),
                ProcessHandle.current().pid());
    }

    @FunctionalInterface
    protected interface TrialSpecFactory {
        TrialSpec create(Path hlog);
    }
}
