package clientbench.cli;

import clientbench.api.AdapterConfig;
import clientbench.harness.TrialSpec;
import clientbench.jmh.HarnessProfiler;
import clientbench.jvm.Jdk;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * JMH's options for one run of the comparison (one shape, one client): the profile's timings unless
 * the shape keeps its own, the shape's parameters, both profilers, and the forks' JVM; anything given
 * after {@code --} wins over the profile and the shape.
 */
final class RunOptions {

    private RunOptions() {
    }

    /**
     * The forks' JVM flags, the same for every run: one heap for every client, the JDK's flags, then the
     * user's {@code -jvmArgs} (after ours, so that theirs win: {@code -Xmx2g}), and where the .hlog files go.
     */
    static List<String> forkJvmArgs(Jdk jdk, JmhArgs jmh, Path hlogDir) {
        // A client that runs out of the heap ends its fork at once, as a result.
        List<String> a = new ArrayList<>(List.of("-Xms1g", "-Xmx1g", "-XX:+ExitOnOutOfMemoryError"));
        a.addAll(jdk.flags());
        a.addAll(jmh.jvmArgs());
        a.add("-Dclientbench.hlog.dir=" + hlogDir.toAbsolutePath()); // last: the notebook shows the flags before it
        return a;
    }

    static Options of(RunPlan plan, Profile.Shape shape, String client, List<String> forkJvmArgs) {
        return of(plan, shape, client, forkJvmArgs, null);
    }

    /**
     * @param requestFile with a target: the request file every run gets as the JMH parameter {@code request}
     *                    (it holds the URL's path and query; the parameter {@code target} is then the origin)
     */
    static Options of(RunPlan plan, Profile.Shape shape, String client, List<String> forkJvmArgs, Path requestFile) {
        CommandLineOptions cmd = plan.jmh().perRun();
        Profile p = plan.profile();
        ChainedOptionsBuilder b = new OptionsBuilder().parent(cmd)
                .include("^" + Pattern.quote(shape.benchmark()) + "$")
                .shouldFailOnError(true)
                .jvm(plan.jdk().java().toString())
                .jvmArgs(shape.forkJvmArgs(forkJvmArgs))
                .addProfiler(HarnessProfiler.class)
                .addProfiler(GCProfiler.class);
        if (!shape.ownTimings()) {
            if (!cmd.getForkCount().hasValue()) {
                b.forks(shape.timings().forks());
            }
            if (!cmd.getWarmupIterations().hasValue()) {
                b.warmupIterations(shape.timings().warmupIterations());
            }
            if (!cmd.getWarmupTime().hasValue()) {
                b.warmupTime(TimeValue.seconds(shape.timings().warmupSeconds()));
            }
            if (!cmd.getMeasurementIterations().hasValue()) {
                b.measurementIterations(shape.timings().measurementIterations());
            }
            if (!cmd.getMeasurementTime().hasValue()) {
                b.measurementTime(TimeValue.seconds(shape.timings().measurementSeconds()));
            }
        }
        Map<String, String> params = new LinkedHashMap<>(shape.params());
        params.put("client", client);
        if (plan.target() != null) {
            params.put("target", requestFile == null ? plan.target()
                    : TrialSpec.origin(AdapterConfig.parseTarget(plan.target())).toString());
            if (requestFile != null) {
                params.put("request", requestFile.toAbsolutePath().toString());
            }
        }
        params.forEach((k, v) -> {
            if (!plan.jmh().hasParam(k)) {
                b.param(k, v);
            }
        });
        return b.build();
    }
}
