package clientbench.jmh;

import clientbench.harness.record.IterationSnapshot;
import clientbench.harness.record.Probes;
import clientbench.harness.rule.Steadiness;
import clientbench.harness.record.Thresholds;
import clientbench.harness.TrialSpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.infra.Control;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * What every load-shape benchmark shares: one call of {@link #request} schedules one request of the
 * window, the warm-up until the fork is steady runs the same loop ({@link #settle}), and the trial's lifecycle is
 * {@link LoadState}'s. A subclass is one lesson: its class comment, its run settings, its parameters and a
 * {@code @Setup(Level.Trial)} that starts the trial.
 */
public abstract class LoadBenchmark extends LoadState {

    /** The benchmark method's name, as JMH lists it after the class: {@code OpenLoopBenchmark.request}. */
    public static final String METHOD = "request";

    private Control control;
    private BooleanSupplier stop;
    /** Whether {@link #settle} was asked to judge steadiness (a bound above 0 s). */
    private boolean settling = true;

    @Benchmark
    public boolean request(Control control) {
        if (control != this.control) { // one stop check per Control, not a new lambda per request
            this.control = control;
            this.stop = () -> control.stopMeasurement;
        }
        return generator.sendNext(stop);
    }

    /** A settle window: two quiet ones in a row make a fork steady, so it is measured within 1-2 s of being so. */
    static final long SETTLE_WINDOW_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** The settle loop's own stop, after its window's end, as JMH's comes after an iteration's time. */
    static final long SETTLE_STOP_AFTER_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    /** Over this share of a window spent compiling, the client JVM is still warming (thresholds.json). */
    static final double JIT_WARMING = Probes.JIT_WARMING;

    /** A fork's settle bound where its shape sets none (JMH's own default for the parameter). */
    public static final String DEFAULT_SETTLE_SECONDS = "30";

    /** A {@code settleSeconds} parameter's value: whole seconds, 0 or more. */
    static int settleSeconds(String value) {
        int seconds = TrialSpec.integer("settleSeconds", value);
        if (seconds < 0) {
            throw new IllegalArgumentException("settleSeconds must be >= 0, was " + value);
        }
        return seconds;
    }

    /**
     * Before JMH's warm-up: 1 s windows of {@link #request} at {@code rate} until the fork is steady ({@link Steadiness}: the JIT quiet and
     * latency p50 no longer moving) or {@code maxSeconds} pass; the outcome goes into the trial's record as
     * {@code warmup}. While a window's JIT compiles over thresholds.json's jitWarmingShare, the next lends the compiler
     * threads every CPU ({@link clientbench.harness.CpuLayout#lendCpusToCompilers}); such windows are never judged
     * steady. A steady fork's compilers then move to the stub's CPUs ({@link clientbench.harness.CompilersAside}).
     * {@code maxSeconds} 0: no settling, the record says it was not judged.
     */
    protected final Steadiness settle(double rate, int maxSeconds) {
        settling = maxSeconds > 0;
        Steadiness steadiness = new Steadiness(TimeUnit.SECONDS.toNanos(Math.max(0, maxSeconds)));
        if (!Double.isNaN(rate)) {
            generator.rate(rate); // NaN: a closed loop, which has no rate
        }
        if (turn != null) {
            turn.await("settle"); // in an interleaved set, each fork warms up alone
        }
        try {
            boolean compiling = true; // a cold JVM: its first window compiles
            for (int w = 1; steadiness.goOn(SETTLE_WINDOW_NANOS); w++) {
                int number = w;
                boolean lent = compiling;
                trial.beginIteration(SETTLE_WINDOW_NANOS);
                if (lent) {
                    trial.layout().lendCpusToCompilers();
                }
                IterationSnapshot s = unmeasuredWindow(SETTLE_WINDOW_NANOS, facts -> {
                    facts.put("settle", number);
                    facts.put("settle.compilersOnEveryCpu", lent);
                });
                double jit = s.probes().jitShare();
                compiling = jit >= JIT_WARMING;
                steadiness.add(s.windowNanos(), jit, s.latency().getTotalCount() > 0 ? s.latency().getValueAtPercentile(50) : 0,
                        !lent);
            }
            // Steady: a late compilation runs beside the stub, never delaying the pacer. A fork still compiling keeps
            // them with the client: that much work would slow its stub.
            trial.compilersAside(steadiness.steady());
        } catch (RuntimeException | Error e) {
            stopTrial(); // JMH runs no tear-down after a failed set-up: the stub's JVM would outlive the fork
            throw e;
        }
        Map<String, Object> warmup = steadiness.toJson();
        if (maxSeconds == 0) {
            warmup.put("steady", null); // not judged: the record says so rather than calling the fork unsteady
            warmup.put("why", "not judged: no settling asked for (settleSeconds 0)");
        }
        trial.recordWarmup(warmup);
        if (turn != null && jmhWarmups == 0) {
            turn.done(); // else JMH's warm-up iterations run in this turn too, and the last hands it back
        }
        return steadiness;
    }

    /** An interleaved turn's resume window, unmeasured, at the measured load; the kernel counts its system calls. */
    static final long RESUME_WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(Long.getLong("clientbench.resumeMillis", 1_000));
    /**
     * The most resume windows a turn runs before its measured one, steady again or not (the record says which). A fork
     * that never settled (settleSeconds 0: not a measurement) has no steadiness to regain: it runs one.
     */
    static final int RESUME_MAX_WINDOWS = 3;

    /**
     * Resume windows until one is quiet: the JIT under the steady share and no connection opened. A fork that waited
     * tens of seconds finds its idle connections closed and compiles the paths that reopen them; that belongs here,
     * not in the measured window. The last resume window, the one just before it, is where the kernel's counts are.
     */
    @Override
    protected final void resume() {
        for (int w = 1; ; w++) {
            int number = w;
            trial.beginIteration(RESUME_WINDOW_NANOS, true);
            Probes p = unmeasuredWindow(RESUME_WINDOW_NANOS, facts -> facts.put("resume", number)).probes();
            boolean quiet = p.jitShare() >= 0 && p.jitShare() < Thresholds.STEADY_JIT_SHARE && p.connectionsOpened() <= 0;
            if (quiet || !settling || w >= RESUME_MAX_WINDOWS) {
                return;
            }
        }
    }

    /**
     * Runs an unmeasured window of {@code nanos} after {@code trial.beginIteration}, with JMH's own loop, request(control),
     * so that what the measured windows run is what compiled here: a stop check of another class would deoptimize
     * sendNext and recompile it in JMH's first iterations.
     */
    private IterationSnapshot unmeasuredWindow(long nanos, java.util.function.Consumer<Map<String, Object>> more) {
        long stopAt = System.nanoTime() + nanos + SETTLE_STOP_AFTER_NANOS;
        Control control = new Control();
        while (System.nanoTime() - stopAt < 0) {
            request(control);
        }
        control.stopMeasurement = true;
        return trial.endIteration(false, snapshot -> {
            Map<String, Object> facts = new LinkedHashMap<>(trial.facts(snapshot));
            more.accept(facts);
            return facts;
        });
    }
}
