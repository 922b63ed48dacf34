package clientbench.run;

import clientbench.api.AdapterConfig;
import clientbench.harness.TrialSpec;
import clientbench.jmh.HarnessProfiler;
import clientbench.jvm.ClientJvm;
import clientbench.jvm.Jdk;
import clientbench.plan.JmhArgs;
import clientbench.plan.RunPlan;
import clientbench.plan.Schedule;
import clientbench.plan.Shape;
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
public final class RunOptions {

    private RunOptions() {
    }

    /**
     * The forks' JVM flags, the same for every run: one heap for every client, the JDK's flags, then the
     * user's {@code -jvmArgs} (after ours, so that theirs win: {@code -Xmx2g}), and where the .hlog files go.
     */
    public static List<String> forkJvmArgs(Jdk jdk, JmhArgs jmh, Path hlogDir) {
        List<String> a = new ArrayList<>(ClientJvm.args(jdk));
        a.addAll(jmh.jvmArgs());
        // last: the notebook shows the flags before it
        a.add("-D" + clientbench.jmh.LoadState.HLOG_DIR + "=" + hlogDir.toAbsolutePath());
        return a;
    }

    /** Set by an upgrade's run for each step's JVM: the archive folder of that version's jar ({@link VersionArms}). */
    static final String ARCHIVES = "clientbench.archives";

    /** Where the forks' and stubs' class-data archives are kept: under target/, one folder per JDK. */
    static Path classDataDir(RunPlan plan) {
        Path archives = ClientJvm.archiveDir(Path.of(System.getProperty("clientbench.root", ".")), plan.jdk());
        String jarOwn = System.getProperty(ARCHIVES);
        return jarOwn == null ? archives : Path.of(jarOwn).resolve(archives.getFileName());
    }

    /**
     * The fork's flags plus a class-data archive of the client's own ({@code -XX:+AutoCreateSharedArchive}): the first
     * fork on a JDK (or after a rebuild, {@link ClientJvm#dropStale}) writes it, later ones map it; startup only, the
     * JIT starts cold. Not when -jvmArgs set class data sharing, before JDK 19, or with directories on the class path.
     */
    static List<String> withClassDataSharing(RunPlan plan, String client, List<String> forkJvmArgs) {
        if (!classDataSharing(plan)) {
            return forkJvmArgs;
        }
        List<String> a = new ArrayList<>(forkJvmArgs);
        ClientJvm.dropStale(ClientJvm.archive(classDataDir(plan), client), System.getProperty("java.class.path"));
        a.addAll(ClientJvm.archiveArgs(classDataDir(plan), client));
        return a;
    }

    /** Whether the forks get archives of their own ({@link #withClassDataSharing}). */
    static boolean classDataSharing(RunPlan plan) {
        boolean theirs = plan.jmh().jvmArgs().stream().anyMatch(a -> a.startsWith("-Xshare") || a.contains("SharedArchive"));
        // The forks run on this JVM's class path (JMH's default).
        return !theirs && ClientJvm.canArchive(plan.jdk(), System.getProperty("java.class.path"), classDataDir(plan));
    }

    /** For env.json: the flags each fork got beyond forkJvmArgs, or why none. */
    static String describeClassDataSharing(RunPlan plan) {
        return classDataSharing(plan)
                ? "-XX:+AutoCreateSharedArchive -XX:SharedArchiveFile=" + classDataDir(plan) + "/<client>.jsa after"
                + " forkJvmArgs, and the stub's JVM " + classDataDir(plan) + "/stub.jsa: startup only (classes mapped"
                + " from an archive the first fork wrote), the JIT starts cold either way"
                : "none (the JDK is older than 19, -jvmArgs set class data sharing, the class path holds a directory"
                + " or the archive folder cannot be written)";
    }

    static Options of(RunPlan plan, Shape shape, String client, List<String> forkJvmArgs) {
        return of(plan, shape, client, 1, forkJvmArgs, null);
    }

    /**
     * @param round the round this run is of ({@link Schedule}), for the trial's record
     * @param requestFile with a target: the request file every run gets as the JMH parameter {@code request}
     *                    (it holds the URL's path and query; the parameter {@code target} is then the origin)
     */
    public static Options of(RunPlan plan, Shape shape, String client, int round, List<String> forkJvmArgs, Path requestFile) {
        CommandLineOptions cmd = plan.jmh().perRun();
        ChainedOptionsBuilder b = new OptionsBuilder().parent(cmd)
                .include("^" + Pattern.quote(shape.benchmark()) + "$")
                .shouldFailOnError(true)
                .jvm(plan.jdk().java().toString())
                .jvmArgs(shape.forkJvmArgs(withClassDataSharing(plan, client, forkJvmArgs), round))
                .addProfiler(HarnessProfiler.class)
                .addProfiler(GCProfiler.class);
        if (!shape.ownTimings()) {
            if (!cmd.getForkCount().hasValue()) {
                b.forks(1); // one fork a round: the rounds are the forks
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
