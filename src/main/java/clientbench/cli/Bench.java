package clientbench.cli;

import clientbench.api.AdapterConfig;
import clientbench.harness.JsonFiles;
import com.fasterxml.jackson.databind.JsonNode;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

/**
 * {@code ./bench}: the one-command comparison. Runs every chosen client through the profile's shapes,
 * one JMH run per (shape, client), and leaves {@code results/<run>/} with the JMH JSON, the .hlog files,
 * env.json and report.html. See {@link Profile} for what each profile measures.
 */
@Command(name = "bench", mixinStandardHelpOptions = false, sortOptions = false,
        description = {"Runs the comparison of every client and writes results/<yyyyMMdd-HHmmss>-<host>/.",
                "Anything after -- goes to JMH (e.g. -- -prof stack)."})
public final class Bench implements Callable<Integer> {

    @Option(names = "--profile", paramLabel = "NAME", description = "quick (default, ~10 min), standard (~1 h, 3 forks), full")
    String profile = "quick";

    @Option(names = "--clients", paramLabel = "A,B", description = "clients to run (default: all)")
    String clients;

    @Option(names = "--target", paramLabel = "URL", description = "an already running stub or other server instead of a stub per trial")
    String target;

    @Option(names = "--jdk", paramLabel = "PATH", description = "the JDK the client JVMs run on (default: the launcher's)")
    Path jdk;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this text")
    boolean help;

    @Parameters(paramLabel = "JMH_ARGS", description = "after --: passed to JMH")
    List<String> jmhArgs = new ArrayList<>();

    private final PrintStream out = System.out;

    public static void main(String[] args) {
        String command = args.length == 0 ? "run" : args[0];
        String[] rest = args.length == 0 ? args : java.util.Arrays.copyOfRange(args, 1, args.length);
        int code = switch (command) {
            case "run" -> new CommandLine(new Bench()).setParameterExceptionHandler(Bench::usageError).execute(rest);
            case "report" -> new CommandLine(new Report()).setParameterExceptionHandler(Bench::usageError).execute(rest);
            default -> {
                System.err.println("bench: unknown command '" + command + "'");
                yield 2;
            }
        };
        System.exit(code);
    }

    private static int usageError(CommandLine.ParameterException e, String[] args) {
        System.err.println("bench: " + e.getMessage());
        e.getCommandLine().usage(System.err);
        return 2;
    }

    @Override
    public Integer call() throws Exception {
        // Check every input before spending any time.
        Profile p;
        List<String> chosen;
        CommandLineOptions passthrough;
        String java;
        try {
            p = Profile.named(profile);
            chosen = clients == null ? Profile.allClients() : Profile.clients(clients);
            passthrough = new CommandLineOptions(jmhArgs.toArray(String[]::new));
            checkParams(passthrough);
            java = javaOf(jdk);
        } catch (IllegalArgumentException | CommandLineOptionException e) {
            System.err.println("bench: " + e.getMessage());
            new CommandLine(this).usage(System.err);
            return 2;
        }
        if (target != null) {
            String problem = unreachable(target);
            if (problem != null) {
                System.err.println("bench: " + problem);
                return 1;
            }
        }

        Path results = Path.of(System.getProperty("clientbench.root", ".")).resolve("results");
        RunFolder run = RunFolder.create(results);
        Thread onInterrupt = new Thread(() -> {
            run.markIncomplete("interrupted at " + Instant.now() + ": the numbers here are partial");
            System.err.println("\nbench: interrupted; partial results stay in " + run.dir() + " (marked INCOMPLETE)");
        }, "bench-interrupted");
        Runtime.getRuntime().addShutdownHook(onInterrupt);

        List<String> forkJvmArgs = jvmArgs(java, run.dir());
        Instant started = Instant.now();
        int total = p.runs(chosen);
        out.printf("bench: profile %s, %d clients x %d shapes = %d runs, about %s; results in %s%n", p.name(),
                chosen.size(), p.shapes().size(), total, human(Duration.ofSeconds(p.estimatedSeconds(chosen.size()))),
                run.dir());
        List<RunResult> all = new ArrayList<>();
        List<Map<String, Object>> runs = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        int n = 0;
        try (PrintStream jmhLog = new PrintStream(new FileOutputStream(run.dir().resolve("jmh.log").toFile()), true,
                StandardCharsets.UTF_8)) {
            for (Profile.Shape shape : p.shapes()) {
                for (String client : shape.clients(chosen)) {
                    n++;
                    String eta = human(eta(started, n - 1, total, p, chosen.size()));
                    out.printf("[%2d/%d] %-16s %-10s (%s left) ", n, total, shape.name(), client, eta);
                    out.flush();
                    String refusal = clientbench.adapters.Adapters.refusal(client, shape.protocol());
                    if (refusal != null) {
                        skipped.add(shape.name() + "/" + client + ": " + refusal);
                        out.println(" skipped: " + refusal);
                        continue;
                    }
                    Collection<RunResult> r;
                    ByteArrayOutputStream runLog = new ByteArrayOutputStream();
                    try (PrintStream runOut = new PrintStream(runLog, true, StandardCharsets.UTF_8)) {
                        r = new Runner(options(p, shape, client, passthrough, java, forkJvmArgs),
                                new ProgressFormat(OutputFormatFactory.createFormatInstance(runOut, VerboseMode.NORMAL), out))
                                .run();
                    } catch (RunnerException e) {
                        r = List.of();
                        runLog.writeBytes(("run failed: " + e + "\n").getBytes(StandardCharsets.UTF_8));
                    }
                    jmhLog.write(runLog.toByteArray());
                    if (r.isEmpty()) {
                        // A client that crashes (an OutOfMemoryError holding 15,000 requests, say) is a result.
                        String why = failureReason(runLog.toString(StandardCharsets.UTF_8));
                        failed.add(shape.name() + "/" + client + ": " + why);
                        out.println(" FAILED: " + why + " (details in jmh.log)");
                        continue;
                    }
                    all.addAll(r);
                    for (RunResult rr : r) {
                        out.println(" " + Summary.line(rr));
                        runs.add(Map.of("shape", shape.name(), "client", client, "benchmark", shape.benchmark(),
                                "params", rr.getParams().getParamsKeys().stream().collect(LinkedHashMap::new,
                                        (m, k) -> m.put(k, rr.getParams().getParam(k)), Map::putAll)));
                    }
                }
            }
        }

        Path json = run.dir().resolve("results.json");
        Path tmp = run.dir().resolve("results.json.tmp");
        ResultFormatFactory.getInstance(ResultFormatType.JSON, tmp.toString()).writeOut(all);
        Files.move(tmp, json, StandardCopyOption.ATOMIC_MOVE);
        JsonFiles.writeAtomically(run.dir().resolve("summary.json"), Summary.json(all, runs));
        JsonFiles.writeAtomically(run.dir().resolve("env.json"),
                env(p, chosen, started, runs, failed, skipped, java, forkJvmArgs, run.dir()));

        out.println();
        out.print(Summary.table(all, runs));
        if (!failed.isEmpty()) {
            out.println("bench: " + failed.size() + " of " + total + " runs failed, recorded in env.json and the report:");
            failed.forEach(f -> out.println("  " + f));
        }
        if (all.isEmpty()) {
            run.markIncomplete("no run produced a result: " + String.join("; ", failed));
            System.err.println("bench: no run produced a result; see " + run.dir().resolve("jmh.log"));
            return 1;
        }
        run.finish(); // the data is whole; the report is drawn from the finished folder
        Runtime.getRuntime().removeShutdownHook(onInterrupt);
        boolean reported = Report.render(run.finalDir(), out);
        Path html = run.finalDir().resolve("report.html");
        out.println(reported ? "bench: report " + html : "bench: results in " + run.finalDir()
                + " (the report could not be rendered; ./bench report " + run.finalDir() + " tries again)");
        return reported ? 0 : 1;
    }

    private org.openjdk.jmh.runner.options.Options options(Profile p, Profile.Shape shape, String client,
                                                           CommandLineOptions cmd, String java, List<String> forkJvmArgs) {
        ChainedOptionsBuilder b = new OptionsBuilder().parent(cmd)
                .include("^" + Pattern.quote(shape.benchmark()) + "$")
                .shouldFailOnError(true)
                .jvm(java)
                .jvmArgs(shape.forkJvmArgs(forkJvmArgs))
                .addProfiler(clientbench.jmh.HarnessProfiler.class)
                .addProfiler(GCProfiler.class);
        if (!shape.ownTimings()) {
            if (!cmd.getForkCount().hasValue()) {
                b.forks(p.forks());
            }
            if (!cmd.getWarmupIterations().hasValue()) {
                b.warmupIterations(p.warmupIterations());
            }
            if (!cmd.getWarmupTime().hasValue()) {
                b.warmupTime(TimeValue.seconds(p.warmupSeconds()));
            }
            if (!cmd.getMeasurementIterations().hasValue()) {
                b.measurementIterations(p.measurementIterations());
            }
            if (!cmd.getMeasurementTime().hasValue()) {
                b.measurementTime(TimeValue.seconds(p.measurementSeconds()));
            }
        }
        Map<String, String> params = new LinkedHashMap<>(shape.params());
        params.put("client", client);
        if (target != null) {
            params.put("target", target);
        }
        params.forEach((k, v) -> {
            if (!cmd.getParameter(k).hasValue()) {
                b.param(k, v);
            }
        });
        return b.build();
    }

    /** The line of a failed run's output that says why: an error, an exception, or JMH's word on the fork. */
    static String failureReason(String log) {
        String fallback = null;
        for (String line : log.split("\n")) {
            String t = line.trim();
            int oom = t.indexOf("java.lang.OutOfMemoryError");
            if (oom >= 0) {
                // e.g. "Iteration   1: Terminating due to java.lang.OutOfMemoryError: Java heap space"
                int from = t.indexOf("Terminating due to");
                return t.substring(from >= 0 ? from : oom);
            }
            if (fallback == null && (t.matches("^[\\w.$]+(Exception|Error)\\b.*") || t.startsWith("<forked VM failed"))) {
                fallback = t;
            }
        }
        return fallback != null ? fallback : "no reason in the output";
    }

    /** JMH parameters given after -- are checked like the shapes' own, before the run starts. */
    private static void checkParams(CommandLineOptions cmd) {
        for (String v : values(cmd, "rate")) {
            if (!(clientbench.harness.TrialSpec.number("rate", v) > 0)) {
                throw new IllegalArgumentException("rate must be > 0 req/s, was " + v);
            }
        }
        for (String name : List.of("concurrency", "connections", "timeoutMs")) {
            for (String v : values(cmd, name)) {
                if (clientbench.harness.TrialSpec.integer(name, v) <= 0) {
                    throw new IllegalArgumentException(name + " must be > 0, was " + v);
                }
            }
        }
        for (String name : List.of("delayMs", "bytes", "requestBytes")) {
            for (String v : values(cmd, name)) {
                if (clientbench.harness.TrialSpec.integer(name, v) < 0) {
                    throw new IllegalArgumentException(name + " must be >= 0, was " + v);
                }
            }
        }
        values(cmd, "protocol").forEach(clientbench.api.Protocol::parse);
        values(cmd, "backpressure").forEach(clientbench.harness.LoadSpec.Backpressure::parse);
        values(cmd, "client").forEach(Profile::clients);
    }

    private static Collection<String> values(CommandLineOptions cmd, String param) {
        return cmd.getParameter(param).hasValue() ? cmd.getParameter(param).get() : List.of();
    }

    /** Flags for the forks: the JDK's own, one heap size for every client, and where the .hlog files go. */
    private static List<String> jvmArgs(String java, Path dir) throws IOException {
        int feature = feature(java);
        // One heap for every client; a client that runs out of it ends its fork at once, as a result.
        List<String> a = new ArrayList<>(List.of("-Xms1g", "-Xmx1g", "-XX:+ExitOnOutOfMemoryError"));
        a.addAll(clientbench.harness.StubProcess.jdkFlags(feature));
        a.add("-Dclientbench.hlog.dir=" + dir.toAbsolutePath());
        return a;
    }

    /** The java binary of {@code --jdk}, or of this JVM; a JDK older than 21 is an error. */
    static String javaOf(Path jdkHome) throws IOException {
        Path javaBin = (jdkHome == null ? Path.of(System.getProperty("java.home")) : jdkHome).resolve("bin").resolve("java");
        if (!Files.isExecutable(javaBin)) {
            throw new IllegalArgumentException("--jdk " + jdkHome + ": no bin/java there");
        }
        int f = feature(javaBin.toString());
        if (f < 21) {
            throw new IllegalArgumentException("--jdk " + jdkHome + " is Java " + f + "; clientbench needs 21 or newer");
        }
        return javaBin.toString();
    }

    private static int feature(String java) throws IOException {
        if (Path.of(java).equals(Path.of(System.getProperty("java.home"), "bin", "java"))) {
            return Runtime.version().feature();
        }
        Process proc = new ProcessBuilder(java, "-XshowSettings:properties", "-version").redirectErrorStream(true).start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(proc.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                line = line.trim();
                if (line.startsWith("java.specification.version = ")) {
                    String v = line.substring("java.specification.version = ".length());
                    return Integer.parseInt(v.startsWith("1.") ? v.substring(2) : v);
                }
            }
        }
        throw new IllegalArgumentException(java + " did not report its version");
    }

    /** Null when the target answers a TCP connect within 2 s; else why not. */
    static String unreachable(String url) {
        URI uri;
        try {
            uri = AdapterConfig.parseTarget(url);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        int port = uri.getPort() > 0 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(uri.getHost(), port), 2_000);
            return null;
        } catch (IOException e) {
            return "target " + url + " is unreachable (" + e.getMessage() + "); start it first, e.g. ./bench stub --port " + port;
        }
    }

    private Map<String, Object> env(Profile p, List<String> chosen, Instant started, List<Map<String, Object>> runs,
                                    List<String> failed, List<String> skipped, String java, List<String> forkJvmArgs,
                                    Path dir) throws IOException {
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("profile", p.name());
        env.put("started", started.toString());
        env.put("finished", Instant.now().toString());
        env.put("machine", Environment.machine());
        env.put("launcherJdk", Environment.launcherJdk());
        env.put("forkJava", java);
        env.put("forkJvmArgs", forkJvmArgs);
        env.put("settings", Map.of("forks", p.forks(), "warmupIterations", p.warmupIterations(),
                "warmupSeconds", p.warmupSeconds(), "measurementIterations", p.measurementIterations(),
                "measurementSeconds", p.measurementSeconds(), "connectTimeout", clientbench.harness.TrialSpec.CONNECT_TIMEOUT.toString(),
                "requestTimeout", clientbench.harness.TrialSpec.REQUEST_TIMEOUT.toString(),
                "drainTimeout", clientbench.harness.TrialSpec.DRAIN_TIMEOUT.toString()));
        env.put("jmhArgs", jmhArgs);
        env.put("target", target == null ? "stub in its own JVM per trial" : target);
        env.put("clients", chosen);
        env.put("shapes", p.shapes());
        env.put("runs", runs);
        env.put("failed", failed);
        env.put("skipped", skipped);
        env.put("clientSettings", clientSettings(dir));
        return env;
    }

    /** Library versions and effective settings, as each trial's fork recorded them. */
    private static Map<String, Object> clientSettings(Path dir) throws IOException {
        Map<String, Object> m = new LinkedHashMap<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.trial.json")) {
            for (Path f : files) {
                JsonNode node = JsonFiles.MAPPER.readTree(f.toFile());
                m.putIfAbsent(node.path("client").asText(), node.path("settings"));
            }
        }
        return m;
    }

    private static Duration eta(Instant started, int done, int total, Profile p, int clients) {
        long estimate = p.estimatedSeconds(clients);
        if (done == 0) {
            return Duration.ofSeconds(estimate);
        }
        // Scale the estimate of what is left by how fast the runs so far went against theirs.
        double pace = (double) Duration.between(started, Instant.now()).toSeconds() / Math.max(1, estimate * done / total);
        return Duration.ofSeconds((long) (pace * estimate * (total - done) / total));
    }

    static String human(Duration d) {
        long s = d.toSeconds();
        return s >= 3600 ? String.format(Locale.ROOT, "%dh%02dm", s / 3600, s % 3600 / 60)
                : String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }

    static double score(RunResult r, String label) {
        Result<?> res = r.getAggregatedResult().getSecondaryResults().get(label);
        return res == null ? Double.NaN : res.getScore();
    }
}
