package clientbench.cli;

import clientbench.adapters.Adapters;
import clientbench.harness.JsonFiles;
import clientbench.harness.RequestSpec;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The comparison: one JMH run per (shape, client) of a {@link RunPlan} (per fork for a knee search whose forks run
 * apart, {@link Profile#schedule}), a progress line for each, and at
 * the end {@code results/<run>/} with results.json, results.csv, env.json and report.html (see README), and
 * on the terminal the report's decision table. A capacity search the host's steal stopped is run once more after
 * every shape, within the profile's limit ({@link Retries}).
 * A client that crashes is a result; a run that is interrupted or yields nothing stays marked incomplete.
 */
final class ComparisonRun {
    private final RunPlan plan;
    private final PrintStream out;

    ComparisonRun(RunPlan plan, PrintStream out) {
        this.plan = plan;
        this.out = out;
    }

    int run() throws IOException, InterruptedException {
        Path results = Report.root().resolve("results");
        RunFolder run = RunFolder.create(results);
        // With a target: the request every fork sends, credentials in full until the forks are done.
        Path requestFile = plan.request() == null ? null : run.dir().resolve(RequestSpec.FILE);
        if (requestFile != null) {
            plan.request().write(requestFile);
        }
        Thread onInterrupt = new Thread(() -> {
            redact(requestFile);
            run.markIncomplete("interrupted at " + Instant.now() + ": the numbers here are partial");
            System.err.println("\nbench: interrupted; partial results stay in " + run.dir() + " (marked INCOMPLETE)");
        }, "bench-interrupted");
        Runtime.getRuntime().addShutdownHook(onInterrupt);

        Profile p = plan.profile();
        List<String> chosen = plan.clients();
        List<String> forkJvmArgs = RunOptions.forkJvmArgs(plan.jdk(), plan.jmh(), run.dir());
        Instant started = Instant.now();
        List<Profile.Step> steps = plan.steps();
        int total = steps.size();
        long estimatedTotal = 0; // a run a client refuses (no HTTP/2, say) takes no time
        for (Profile.Step step : steps) {
            estimatedTotal += Adapters.refusal(step.client(), step.shape().protocol()) == null
                ? step.shape().estimatedSeconds() : 0;
        }
        long estimatedDone = 0;
        out.printf("bench: profile %s, %d client%s x %d shapes = %d runs, about %s; results in %s%n", p.name(),
                chosen.size(), chosen.size() == 1 ? "" : "s", p.shapes().size(), total,
                TimeLeft.human(Duration.ofSeconds(estimatedTotal)), run.dir());
        if (plan.target() != null) {
            out.println("bench: request " + EnvJson.requestSummary(plan));
        }
        List<RunResult> all = new ArrayList<>();
        List<Map<String, Object>> runs = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        List<Retries.Attempt<RunResult>> stolen = new ArrayList<>();
        List<String> retried;
        int n = 0;
        try (PrintStream jmhLog = new PrintStream(new FileOutputStream(run.dir().resolve("jmh.log").toFile()), true,
                StandardCharsets.UTF_8)) {
            for (Profile.Step step : steps) {
                Profile.Shape shape = step.shape();
                String client = step.client();
                n++;
                String eta = TimeLeft.human(TimeLeft.of(started, estimatedDone, estimatedTotal));
                out.printf("[%2d/%d] %-16s %-10s %s(%s left) ", n, total, shape.name(), client, step.progress(), eta);
                out.flush();
                String refusal = Adapters.refusal(client, shape.protocol());
                if (refusal == null) {
                    estimatedDone += shape.estimatedSeconds();
                } else {
                    skipped.add(shape.name() + "/" + client + ": " + refusal);
                    out.println(" skipped: " + refusal);
                    continue;
                }
                Set<Path> before = Retries.trialFiles(run.dir());
                Jmh j = jmh(shape, client, forkJvmArgs, requestFile, jmhLog);
                Collection<RunResult> r = j.results();
                if (r.isEmpty()) {
                    // A client that crashes (an OutOfMemoryError holding 15,000 requests, say) is a result.
                    String why = FailureReason.of(j.log());
                    // "shape/client: why", which the report reads; a fork run apart says which ("fork 1 of 2: why")
                    failed.add(shape.name() + "/" + client + ": " + (step.fork().isEmpty() ? "" : step.fork() + ": ") + why);
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
                if (Capacity.BENCHMARK.equals(shape.benchmark())) {
                    Retries.Attempt<RunResult> a = Retries.ifStolen(step, List.copyOf(r),
                            Retries.added(before, Retries.trialFiles(run.dir())));
                    if (a != null) {
                        stolen.add(a);
                    }
                    if (step.pass() == step.passes() && step.passes() > 1 && !Adapters.NOOP.equals(client)) {
                        out.println("       " + Capacity.overForks(Capacity.read(run.dir()), shape.name(), client));
                    }
                }
            }
            // A search the host's steal stopped, once more now that time has passed (Retries).
            retried = Retries.retry(stolen, Retries.budget(estimatedTotal, p.timeLimit(),
                    Duration.between(started, Instant.now()), estimatedDone), all, a -> {
                Jmh j = jmh(a.shape(), a.client(), forkJvmArgs, requestFile, jmhLog);
                return new Retries.Outcome<>(List.copyOf(j.results()), j.results().isEmpty() ? FailureReason.of(j.log()) : "");
            }, Summary::line, run.dir(), out);
        }

        redact(requestFile); // every fork is done with it
        ForksApart.merge(all, runs); // one result per (shape, client) again, each fork in it
        writeResults(plan.jmh(), run.dir(), run.finalDir().getFileName().toString(), all, runs);
        List<Capacity.Result> capacity = Capacity.read(run.dir());
        JsonFiles.writeAtomically(run.dir().resolve("summary.json"), Summary.json(all, runs, capacity));
        JsonFiles.writeAtomically(run.dir().resolve("env.json"),
                EnvJson.of(plan, started, runs, failed, skipped, retried, forkJvmArgs, run.dir()));

        out.println();
        out.print(Summary.table(all, runs, capacity));
        if (!failed.isEmpty()) {
            out.println("bench: " + failed.size() + " of " + total + " runs failed, recorded in env.json and the report:");
            failed.forEach(f -> out.println("  " + f));
        }
        if (all.isEmpty()) {
            Runtime.getRuntime().removeShutdownHook(onInterrupt); // not interrupted: it ends here, marked as it is
            run.markIncomplete("no run produced a result: " + String.join("; ", failed));
            System.err.println("bench: no run produced a result; see " + run.dir().resolve("jmh.log"));
            return 1;
        }
        run.finish(); // the data is whole; the report is drawn from the finished folder
        Runtime.getRuntime().removeShutdownHook(onInterrupt);
        Path requested = plan.jmh().resultFile(run.finalDir());
        if (requested != null) {
            out.println("bench: JMH's results as " + plan.jmh().resultFormat() + " in " + requested);
        }
        boolean reported = Report.render(run.finalDir(), out);
        Path html = run.finalDir().resolve("report.html");
        out.println(reported ? "bench: report " + html : "bench: results in " + run.finalDir()
                + " (the report could not be rendered; ./bench report " + run.finalDir() + " tries again)");
        // The terminal ends as the report begins: the decision table and the verdict, from the same code.
        out.println();
        boolean decided = Report.decide(run.finalDir(), out);
        return reported && decided ? 0 : 1;
    }

    /** One JMH run of (shape, client): its results (none when it failed) and what it logged, also added to jmh.log. */
    private record Jmh(Collection<RunResult> results, String log) {
    }

    private Jmh jmh(Profile.Shape shape, String client, List<String> forkJvmArgs, Path requestFile, PrintStream jmhLog)
            throws IOException {
        Collection<RunResult> r;
        ByteArrayOutputStream runLog = new ByteArrayOutputStream();
        try (PrintStream runOut = new PrintStream(runLog, true, StandardCharsets.UTF_8)) {
            r = new Runner(RunOptions.of(plan, shape, client, forkJvmArgs, requestFile),
                    new ProgressFormat(OutputFormatFactory.createFormatInstance(runOut, VerboseMode.NORMAL), out))
                    .run();
        } catch (RunnerException e) {
            r = List.of();
            // The exception's own line, which FailureReason reads (JMH's lock held by another run, say).
            runLog.writeBytes((e + "\n").getBytes(StandardCharsets.UTF_8));
        }
        jmhLog.write(runLog.toByteArray());
        return new Jmh(r, runLog.toString(StandardCharsets.UTF_8));
    }

    /** Replaces the run's request file by its redacted form (no credential stays in results/); idempotent. */
    private void redact(Path requestFile) {
        if (requestFile == null) {
            return;
        }
        try {
            if (Files.exists(requestFile)) {
                plan.request().writeRedacted(requestFile);
            }
        } catch (IOException e) {
            System.err.println("bench: cannot redact " + requestFile + " (it may hold credentials: delete it): " + e.getMessage());
        }
    }

    /**
     * results.json (JMH's JSON, which the notebook reads), results.csv (one row per shape and client), and
     * the file {@code -rf}/{@code -rff} asked for, each written once for the whole run.
     */
    static void writeResults(JmhArgs jmh, Path dir, String runName, List<RunResult> all, List<Map<String, Object>> runs)
            throws IOException {
        writeJmh(ResultFormatType.JSON, dir.resolve("results.json"), all);
        ResultsCsv.write(dir.resolve(ResultsCsv.FILE), runName, all, runs);
        Path requested = jmh.resultFile(dir);
        if (requested != null) {
            writeJmh(jmh.resultFormat(), requested, all);
        }
    }

    /** With JMH's writer, through a temporary file beside it, so a failed write leaves no half file. */
    static void writeJmh(ResultFormatType format, Path file, Collection<RunResult> all) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        ResultFormatFactory.getInstance(format, tmp.toString()).writeOut(all);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
