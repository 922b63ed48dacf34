package clientbench.jmh;

import clientbench.harness.IterationSnapshot;
import clientbench.harness.Trial;
import clientbench.harness.TrialSpec;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import java.nio.file.Path;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The lifecycle every load benchmark shares: start the trial (stub JVM, client), begin and drain each
 * iteration, hand its snapshot to {@link HarnessProfiler}, stop everything at the end of the trial.
 *
 * <p>System properties (passed to forks with {@code -jvmArgsAppend}): {@code clientbench.hlog.dir}
 * (where the .hlog files go; default: the working directory, beside JMH's JSON), {@code clientbench.pin}
 * (pin the stub and the client JVM to different CPUs; default true).
 */
final class LoadState {
    private static boolean warned;

    private Trial trial;
    private boolean measured;

    void start(BenchmarkParams params, TrialSpecFactory spec) throws Exception {
        Path hlog = Path.of(System.getProperty("clientbench.hlog.dir", ".")).resolve(hlogName(params));
        trial = Trial.start(spec.create(hlog), Boolean.parseBoolean(System.getProperty("clientbench.pin", "true")));
    }

    void beginIteration(IterationParams iteration) {
        measured = iteration.getType() == IterationType.MEASUREMENT;
        trial.beginIteration(iteration.getTime().convertTo(TimeUnit.NANOSECONDS));
    }

    boolean sendNext(BooleanSupplier stop) {
        return trial.sendNext(stop);
    }

    void endIteration() {
        IterationSnapshot s = trial.endIteration(measured);
        HarnessProfiler.publish(s);
        if (!HarnessProfiler.active && !warned) {
            warned = true;
            System.err.println("clientbench: no -prof clientbench.jmh.HarnessProfiler: the JSON will lack ok/failures/"
                    + "latency percentiles (the .hlog files still have them). Last iteration: " + s.summary());
        }
    }

    void stop() {
        if (trial != null) {
            trial.close();
            trial = null;
        }
    }

    /** E.g. {@code OpenLoopBenchmark.request-client=jdk,rate=2000-1234.hlog}; params sorted, pid last. */
    static String hlogName(BenchmarkParams params) {
        String benchmark = params.getBenchmark();
        benchmark = benchmark.substring(benchmark.lastIndexOf('.', benchmark.lastIndexOf('.') - 1) + 1);
        TreeMap<String, String> p = new TreeMap<>();
        for (String key : params.getParamsKeys()) {
            p.put(key, params.getParam(key));
        }
        StringBuilder sb = new StringBuilder(benchmark).append('-');
        p.forEach((k, v) -> sb.append(k).append('=').append(v.replaceAll("[^A-Za-z0-9._-]", "_")).append(','));
        sb.setLength(sb.length() - 1);
        return sb.append('-').append(ProcessHandle.current().pid()).append(".hlog").toString();
    }

    @FunctionalInterface
    interface TrialSpecFactory {
        TrialSpec create(Path hlog);
    }
}
