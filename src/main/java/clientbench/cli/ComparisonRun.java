package clientbench.cli;

import clientbench.adapters.Adapters;
import clientbench.behaviour.BehaviourRun;
import clientbench.harness.record.JsonFiles;
import clientbench.harness.RequestSpec;
import clientbench.plan.JmhArgs;
import clientbench.plan.Profile;
import clientbench.plan.RunPlan;
import clientbench.plan.Schedule;
import clientbench.plan.Shape;
import clientbench.plan.TimeLeft;
import clientbench.plan.UntilDecided;
import clientbench.startup.Footprint;
import clientbench.startup.StartupPlan;
import clientbench.startup.StartupResult;
import clientbench.startup.StartupRun;
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
import java.util.Random;

/**
 * The comparison: one JMH run per step of the {@link Schedule}, a progress line each; slowed rounds again as time
 * allows ({@link Repeats}); then the run's files, report and verdict. A crashing client is a result; an interrupted or
 * empty run stays incomplete. An upgrade's versions run as two clients, each on its jar ({@link ArmSteps}).
 */
final class ComparisonRun {
    /** Client JVMs of the behaviour run at once: its cases mostly wait, so more than the 2 cores fit. */
    static final int BEHAVIOUR_JVMS = 4;
    private final RunPlan plan;
    private final PrintStream out;
    private final ArmSteps arms;
    private final Looks looks;
    private final RunConditions conditions = new RunConditions();

    ComparisonRun(RunPlan plan, PrintStream out) {
        this(plan, out, null);
    }

    ComparisonRun(RunPlan plan, PrintStream out, ArmSteps arms) {
        this(plan, out, arms, null);
    }

    /**
     * @param arms for an upgrade's run: its two versions, each step in a JVM on its version's jar, the rounds A B B A,
     *             none repeated (each round's versions are compared within it), and the upgrade's decision at the end;
     *             null for a comparison of clients
     * @param until the shape whose rounds stop once every pair is decided (its rounds already in {@code plan}); null: none
     */
    ComparisonRun(RunPlan plan, PrintStream out, ArmSteps arms, UntilDecided until) {
        this.plan = plan;
        this.out = out;
        this.arms = arms;
        this.looks = until == null ? null : new Looks(until, out);
    }

    /** One step as it ran: its result (null when it failed or was skipped), the files it wrote, why it failed. */
    record Ran(Schedule.Step step, RunResult result, List<Path> files, String failure) {
    }

    int run() throws IOException, InterruptedException {
        RunFolder run = RunFolder.create(Report.root().resolve("results"));
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
        List<String> forkJvmArgs = RunOptions.forkJvmArgs(plan.jdk(), plan.jmh(), run.dir());
        Instant started = Instant.now();
        List<Schedule.Step> steps = arms == null ? plan.steps() : arms.steps();
        boolean startup = p.startup() != null && plan.target() == null; // cold starts need the stub
        int jvms = (int) plan.clients().stream().filter(c -> !Adapters.NOOP.equals(c)).count() + 1;
        long startupSeconds = startup ? p.startup().estimatedSeconds(jvms) : 0;
        // the cases need the stub; an upgrade's: each version once, on its jar
        boolean behaviour = arms == null ? p.behaviour() && plan.target() == null : arms.behaviour();
        long behaviourSeconds = !behaviour ? 0 : arms == null ? BehaviourRun.estimatedSeconds(jvms - 1, BEHAVIOUR_JVMS)
                : ArmSteps.BEHAVIOUR_SECONDS;
        long estimatedTotal = startupSeconds + behaviourSeconds
                + steps.stream().filter(s -> refusal(s) == null).mapToLong(s -> s.shape().estimatedSeconds()).sum();
        int rounds = p.shapes().stream().mapToInt(Shape::rounds).max().orElse(1);
        out.printf("bench: profile %s (%s)%n", p.name(), p.purpose());
        if (conditions.priorityLine() != null) {
            out.println(conditions.priorityLine());
        }
        long clients = plan.clients().stream().filter(c -> !Adapters.NOOP.equals(c)).count();
        out.printf("bench: %s, %d shapes, %d runs in %d round%s, about %s; results in %s%n",
                clients == 0 ? "noop only" : clients + (clients == 1 ? " client" : " clients") + " + noop",
                p.shapes().size(), steps.size(), rounds, rounds == 1 ? "" : "s",
                TimeLeft.human(Duration.ofSeconds(estimatedTotal)), run.dir());
        if (plan.target() != null) {
            out.println("bench: request " + EnvJson.requestSummary(plan));
        }
        if (arms != null) {
            boolean duets = plan.profile().shapes().stream().anyMatch(Shape::interleaved);
            out.println("bench: upgrade " + arms.arms().words() + ": " + (duets ? "a set per round of a fixed-rate or closed"
                    + " shape, old, noop and new alive at once, their windows in a new order each block; other shapes "
                    : "") + "old, noop, new in odd rounds, new, noop, old in even");
        }
        List<Ran> ran = new ArrayList<>();
        List<Map<String, Object>> sets = new ArrayList<>(); // each interleaved set's orders, and the forks that left it
        List<String> skipped = new ArrayList<>();
        List<Map<String, Object>> roundRecords;
        try (PrintStream jmhLog = new PrintStream(new FileOutputStream(run.dir().resolve("jmh.log").toFile()), true,
                StandardCharsets.UTF_8)) {
            long[] done = {0};
            if (startup) {
                conditions.phaseStarts("startup");
                coldStarts(p.startup(), run.dir());
                conditions.phaseEnded("startup");
                done[0] += startupSeconds;
            }
            if (behaviour) {
                conditions.phaseStarts("behaviour");
                behaviour(run.dir());
                conditions.phaseEnded("behaviour");
                done[0] += behaviourSeconds;
            }
            int n = 0;
            Random setOrders = new Random(plan.seed() + 2); // the sets' block orders, drawn apart from the rounds'
            for (int i = 0; i < steps.size(); i++) {
                Schedule.Step step = steps.get(i);
                if (step.shape().interleaved()) {
                    conditions.phaseStarts(step.shape().name());
                    conditions.roundStarts(step.shape().name(), step.round());
                    int end = runSet(steps, i, forkJvmArgs, requestFile, jmhLog, run.dir(), setOrders, sets, ran, skipped,
                            done, started, estimatedTotal);
                    conditions.roundEnded(step.shape().name(), step.round());
                    conditions.phaseEnded(step.shape().name());
                    n = end;
                    i = end - 1;
                    continue;
                }
                n++;
                if (looks != null && looks.skips(step)) {
                    done[0] += step.shape().estimatedSeconds();
                    continue;
                }
                String start = ProgressLine.start(n, steps.size(), step);
                String refusal = refusal(step);
                if (refusal != null) {
                    if (step.round() == 1) { // said once, for every round of the shape
                        skipped.add(step.shape().name() + "/" + step.client() + ": " + refusal);
                        out.println(ProgressLine.end(start, "skipped: it refuses " + step.shape().protocol()
                                + " (env.json says why)", left(started, done[0], estimatedTotal)));
                    }
                    continue;
                }
                conditions.phaseStarts(step.shape().name());
                conditions.roundStarts(step.shape().name(), step.round());
                Ran r = arms == null ? runStep(step, forkJvmArgs, requestFile, jmhLog, run.dir()) : arms.run(step, jmhLog, run.dir());
                conditions.roundEnded(step.shape().name(), step.round());
                conditions.phaseEnded(step.shape().name());
                done[0] += step.shape().estimatedSeconds();
                ran.add(r);
                out.println(ProgressLine.end(start, r.result() == null ? "FAILED: " + r.failure()
                        : ProgressLine.figures(r.files()), left(started, done[0], estimatedTotal)));
                if (looks != null && looks.due(steps, i)) {
                    Map<String, List<Ran>> byRound = byRound(ran);
                    looks.take(run.dir(), step.round(), until -> writeRecords(run, started, collect(ran), skipped,
                            roundRecords(judged(byRound), byRound, List.of(), conditions), forkJvmArgs, sets, until));
                }
            }
            roundRecords = repeatFlaggedRounds(ran, forkJvmArgs, requestFile, jmhLog, run.dir(),
                    Repeats.budgetSeconds(estimatedTotal, limitLeft(p.timeLimit(), started), Duration.between(started,
                            Instant.now()), done[0]));
        }

        redact(requestFile); // every fork is done with it
        Collected c = collect(ran);
        List<RunResult> all = c.all();
        List<String> failed = c.failed();
        writeRecords(run, started, c, skipped, roundRecords, forkJvmArgs, sets, looks == null ? null : looks.record());
        if (!failed.isEmpty()) {
            out.println("bench: " + failed.size() + " of " + steps.size() + " runs failed (env.json and the report say why)");
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
        // The verdict (an upgrade's: its ratios) is decided once, into summary.json and results.csv; the report and
        // the terminal print it.
        String verdict = arms == null ? Report.decide(run.finalDir()) : Report.upgrade(run.finalDir());
        boolean reported = verdict != null && Report.render(run.finalDir(), out);
        if (verdict != null) {
            out.println();
            out.print(verdict);
        }
        out.println(reported ? "bench: report " + run.finalDir().resolve("report.html") : "bench: results in "
                + run.finalDir() + " (the report could not be rendered; ./bench report " + run.finalDir() + " tries again)");
        return reported ? 0 : 1;
    }

    /** What the runs so far make: JMH's results, one per (shape, client) with each round a fork of it; env.json's
     *  runs entries; and each failed run's "shape/client: round 1/3: why", which the report reads. */
    record Collected(List<RunResult> all, List<Map<String, Object>> runs, List<String> failed) {
    }

    static Collected collect(List<Ran> ran) {
        List<RunResult> all = new ArrayList<>();
        List<Map<String, Object>> runs = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (Ran r : ran) {
            if (r.result() == null) {
                failed.add(r.step().shape().name() + "/" + r.step().client() + ": " + r.step().roundWords() + ": " + r.failure());
                continue;
            }
            all.add(r.result());
            runs.add(describe(r));
        }
        Rounds.merge(all, runs);
        return new Collected(all, runs, failed);
    }

    /** results.json and .csv, summary.json and env.json of {@code c}: at the end, and before each look. */
    private void writeRecords(RunFolder run, Instant started, Collected c, List<String> skipped,
                              List<Map<String, Object>> roundRecords, List<String> forkJvmArgs,
                              List<Map<String, Object>> sets, Map<String, Object> untilDecided) throws IOException {
        writeResults(plan.jmh(), run.dir(), run.finalDir().getFileName().toString(), c.all(), c.runs());
        JsonFiles.writeAtomically(run.dir().resolve("summary.json"), Summary.json(c.all(), c.runs(), Capacity.read(run.dir())));
        Map<String, Object> env = EnvJson.of(plan, started, c.runs(), c.failed(), skipped, roundRecords, forkJvmArgs, run.dir());
        env.put("conditions", conditions.toJson(run.dir()));
        if (arms != null) {
            env.put("upgrade", arms.arms().toJson());
        }
        if (!sets.isEmpty()) {
            env.put("sets", sets);
        }
        if (untilDecided != null) {
            env.put("untilDecided", untilDecided);
        }
        JsonFiles.writeAtomically(run.dir().resolve("env.json"), env);
    }

    /**
     * Before the first request: every client's cold starts ({@link StartupRun}) and its dependencies ({@link
     * Footprint}), each start's line in startup.log, one line here.
     */
    private void coldStarts(Profile.Startup s, Path dir) throws IOException, InterruptedException {
        out.printf("[startup] %d starts of each client and noop in a fresh JVM (%d with its archive, %d with 10,000"
                + " requests after the first)%n", s.starts(), s.archiveStarts(), s.requestStarts());
        Path root = Report.root();
        try (PrintStream log = new PrintStream(new FileOutputStream(dir.resolve("startup.log").toFile()), true,
                StandardCharsets.UTF_8)) {
            StartupResult r = StartupRun.run(StartupPlan.of(plan.clients(), s.starts(), plan.jdk(), root)
                    .withShares(s.archiveStarts(), s.requestStarts()), dir, log);
            long failed = r.clients().values().stream().flatMap(List::stream).filter(x -> !x.ok()).count();
            out.printf("[startup] %d starts done%s; startup.json%n", r.clients().values().stream().mapToInt(List::size).sum(),
                    failed == 0 ? "" : ", " + failed + " failed (startup.log says why)");
            if (s.footprint()) {
                Footprint.write(plan.clients(), dir, plan.jdk(), root, log);
            }
        }
    }

    /**
     * Every client through the behaviour cases, {@link #BEHAVIOUR_JVMS} client JVMs at a time; one line each. An
     * upgrade's: the client once on each version's jar, both at once, named as the run names the versions.
     */
    private void behaviour(Path dir) throws IOException, InterruptedException {
        Map<String, Object> r;
        if (arms == null) {
            out.printf("[behaviour] each client through %d cases as shipped (stale connections, deadlines, timeouts,"
                    + " pools, bodies, a slow host, big heads, TLS, HTTP/2), %d JVMs at a time%n", BehaviourRun.cases(),
                    BEHAVIOUR_JVMS);
            r = BehaviourRun.run(plan.clients(), plan.jdk(), BEHAVIOUR_JVMS, dir, out);
        } else {
            out.printf("[behaviour] %s through %d cases as shipped, each version in a JVM on its jar, both at once"
                    + " (about %d s; --no-behaviour skips it)%n", arms.arms().words(), BehaviourRun.cases(),
                    ArmSteps.BEHAVIOUR_SECONDS);
            r = BehaviourRun.runSubjects(arms.arms().behaviourSubjects(), plan.jdk(), BEHAVIOUR_JVMS, dir, out);
        }
        out.printf("[behaviour] done in %s s; %s%n", r.get("wallSeconds"), BehaviourRun.FILE);
    }

    /**
     * The interleaved set that begins at {@code steps[from]} (its shape's round), then a progress line for each of its
     * runs as a run alone prints it; returns the index after its last step.
     */
    private int runSet(List<Schedule.Step> steps, int from, List<String> forkJvmArgs, Path requestFile, PrintStream jmhLog,
                       Path dir, Random setOrders, List<Map<String, Object>> sets, List<Ran> ran, List<String> skipped,
                       long[] done, Instant started, long estimatedTotal) throws IOException, InterruptedException {
        Schedule.Step first = steps.get(from);
        int end = from;
        while (end < steps.size() && steps.get(end).shape() == first.shape() && steps.get(end).round() == first.round()) {
            end++;
        }
        List<Schedule.Step> set = steps.subList(from, end).stream().filter(s -> refusal(s) == null).toList();
        List<Ran> setRan = set.isEmpty() ? List.of()
                : InterleavedSet.run(set, arms == null ? InterleavedSet.inThisJvm(plan, forkJvmArgs, requestFile)
                        : (step, turns, log) -> arms.runInSet(step, turns, log, dir), jmhLog, dir, out, setOrders, sets);
        done[0] += set.size() * first.shape().estimatedSeconds();
        ran.addAll(setRan);
        for (int j = from; j < end; j++) {
            Schedule.Step s = steps.get(j);
            String start = ProgressLine.start(j + 1, steps.size(), s);
            Ran r = setRan.stream().filter(x -> x.step() == s).findFirst().orElse(null);
            if (r == null) {
                if (s.round() == 1) { // said once, for every round of the shape
                    skipped.add(s.shape().name() + "/" + s.client() + ": " + refusal(s));
                    out.println(ProgressLine.end(start, "skipped: it refuses " + s.shape().protocol()
                            + " (env.json says why)", left(started, done[0], estimatedTotal)));
                }
            } else {
                out.println(ProgressLine.end(start, r.result() == null ? "FAILED: " + r.failure()
                        : ProgressLine.figures(r.files()), left(started, done[0], estimatedTotal)));
            }
        }
        return end;
    }

    private String refusal(Schedule.Step s) {
        return Adapters.refusal(arms == null ? s.client() : arms.arms().adapter(s.client()), s.shape().protocol());
    }

    /** The system property the launcher sets to when the user's command began, in epoch milliseconds. */
    static final String COMMAND_STARTED = "clientbench.commandStarted";

    /**
     * The profile's limit less what the command spent before this run began (the launcher's build, the venv): the
     * limit is the user's wait, from {@code clientbench.commandStarted} (epoch ms) where the launcher gives it.
     */
    static Duration limitLeft(Duration limit, Instant runStarted) {
        Long commandStarted = Long.getLong(COMMAND_STARTED);
        if (limit == null || commandStarted == null) {
            return limit;
        }
        Duration before = Duration.between(Instant.ofEpochMilli(commandStarted), runStarted);
        return before.isNegative() ? limit : limit.minus(before);
    }

    private static String left(Instant started, long done, long total) {
        return TimeLeft.human(TimeLeft.of(started, done, total));
    }

    /** One step's JMH run; the files it wrote are the trial records and logs new in the folder. */
    private Ran runStep(Schedule.Step step, List<String> forkJvmArgs, Path requestFile, PrintStream jmhLog, Path dir)
            throws IOException {
        List<Path> before = trialFiles(dir);
        ByteArrayOutputStream runLog = new ByteArrayOutputStream();
        Collection<RunResult> r;
        try (PrintStream runOut = new PrintStream(runLog, true, StandardCharsets.UTF_8)) {
            r = new Runner(RunOptions.of(plan, step.shape(), step.client(), step.round(), forkJvmArgs, requestFile),
                    OutputFormatFactory.createFormatInstance(runOut, VerboseMode.NORMAL)).run();
        } catch (RunnerException e) {
            r = List.of();
            // The exception's own line, which FailureReason reads (JMH's lock held by another run, say).
            runLog.writeBytes((e + "\n").getBytes(StandardCharsets.UTF_8));
        }
        jmhLog.write(runLog.toByteArray());
        List<Path> files = new ArrayList<>(trialFiles(dir));
        files.removeAll(before);
        String log = runLog.toString(StandardCharsets.UTF_8);
        // A client that crashes (an OutOfMemoryError holding 15,000 requests, say) is a result, said in a line.
        return r.isEmpty() ? new Ran(step, null, files, FailureReason.of(log)) : new Ran(step, r.iterator().next(), files, "");
    }

    /** The run folder's trial records and histograms ({@code *.trial.json}, {@code *.hlog}), at its top level. */
    static List<Path> trialFiles(Path dir) throws IOException {
        try (var files = Files.newDirectoryStream(dir, "*.{trial.json,hlog}")) {
            List<Path> out = new ArrayList<>();
            files.forEach(out::add);
            return out;
        }
    }

    /**
     * Judges every round ({@link RoundChecks}), runs the flagged ones again while time allows ({@link Repeats}), and
     * returns env.json's {@code rounds}: per round of each shape, its clients' order, facts and flags, and its repeat.
     */
    private List<Map<String, Object>> repeatFlaggedRounds(List<Ran> ran, List<String> forkJvmArgs, Path requestFile,
                                                          PrintStream jmhLog, Path dir, long budgetSeconds) throws IOException {
        Map<String, List<Ran>> byRound = byRound(ran);
        List<RoundChecks.Facts> judged = judged(byRound);
        // An interleaved set is not run again: its blocks already share each spell of the host among its clients.
        List<RoundChecks.Facts> flagged = judged.stream().filter(f -> !f.flags().isEmpty())
                .filter(f -> plan.profile().shapes().stream().noneMatch(x -> x.name().equals(f.shape()) && x.interleaved()))
                .toList();
        Random random = new Random(plan.seed() + 1); // the repeats' orders, drawn apart from the rounds'
        List<Repeats.Repeat> repeats = arms != null ? List.of() : Repeats.run(flagged, judged, ran, budgetSeconds, (shape, round) -> {
            Shape sh = plan.profile().shapes().stream().filter(x -> x.name().equals(shape)).findFirst().orElseThrow();
            List<Ran> again = new ArrayList<>();
            for (Schedule.Step step : Schedule.block(sh, plan.clients(), round, random)) {
                if (refusal(step) == null) {
                    String start = ProgressLine.start(again.size() + 1, sh.clients(plan.clients()).size(), step);
                    Ran r = runStep(step, forkJvmArgs, requestFile, jmhLog, dir);
                    out.println(ProgressLine.end(start, r.result() == null ? "FAILED: " + r.failure()
                            : ProgressLine.figures(r.files()), "repeat"));
                    again.add(r);
                }
            }
            return again;
        }, dir, out);
        return roundRecords(judged, byRound, repeats, conditions);
    }

    /** The runs by round: "shape\tround" to the round's runs, in the order they ran. */
    private static Map<String, List<Ran>> byRound(List<Ran> ran) {
        Map<String, List<Ran>> byRound = new LinkedHashMap<>();
        ran.forEach(r -> byRound.computeIfAbsent(r.step().shape().name() + "\t" + r.step().round(), k -> new ArrayList<>()).add(r));
        return byRound;
    }

    /** Each round's facts ({@link RoundChecks#read}), judged against every other round's. */
    private static List<RoundChecks.Facts> judged(Map<String, List<Ran>> byRound) throws IOException {
        List<RoundChecks.Facts> facts = new ArrayList<>();
        for (List<Ran> round : byRound.values()) {
            Schedule.Step s = round.get(0).step();
            facts.add(RoundChecks.read(s.shape().name(), s.round(), Repeats.files(round)));
        }
        return facts.stream().map(f -> RoundChecks.flag(f, facts)).toList();
    }

    /** env.json's {@code rounds}: per round its facts and flags, its clients' order, and its repeat where it had one. */
    private static List<Map<String, Object>> roundRecords(List<RoundChecks.Facts> judged, Map<String, List<Ran>> byRound,
                                                          List<Repeats.Repeat> repeats, RunConditions conditions) {
        List<Map<String, Object>> records = new ArrayList<>();
        for (RoundChecks.Facts f : judged) {
            Map<String, Object> m = new LinkedHashMap<>(f.toJson());
            m.put("order", byRound.get(f.shape() + "\t" + f.round()).stream().map(r -> r.step().client()).toList());
            m.put("host", conditions.round(f.shape(), f.round()));
            repeats.stream().filter(r -> r.first().equals(f)).findFirst().ifPresent(r -> {
                Map<String, Object> again = new LinkedHashMap<>();
                again.put("facts", r.again() == null ? null : r.again().toJson());
                again.put("stands", r.stands());
                again.put("why", r.why());
                m.put("repeat", again);
            });
            records.add(m);
        }
        return records;
    }

    /** env.json's runs entry: the shape, client, benchmark, round and JMH's params of one result. */
    private static Map<String, Object> describe(Ran r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("shape", r.step().shape().name());
        m.put("client", r.step().client());
        m.put("benchmark", r.step().shape().benchmark());
        m.put("round", r.step().round());
        Map<String, String> params = new LinkedHashMap<>();
        r.result().getParams().getParamsKeys().forEach(k -> params.put(k, r.result().getParams().getParam(k)));
        m.put("params", params);
        return m;
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
