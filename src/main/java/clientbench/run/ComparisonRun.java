package clientbench.run;

import clientbench.adapters.Adapters;
import clientbench.behaviour.BehaviourRun;
import clientbench.harness.record.JsonFiles;
import clientbench.harness.RequestSpec;
import clientbench.plan.Profile;
import clientbench.plan.RunPlan;
import clientbench.plan.Schedule;
import clientbench.plan.Shape;
import clientbench.plan.TimeFit;
import clientbench.plan.TimeLeft;
import clientbench.plan.UntilDecided;
import clientbench.results.Capacity;
import clientbench.results.Checkout;
import clientbench.results.EnvJson;
import clientbench.results.ResultFiles;
import clientbench.results.RunConditions;
import clientbench.results.RunFolder;
import clientbench.results.Summary;
import clientbench.report.Analysis;
import clientbench.startup.Footprint;
import clientbench.startup.StartupPlan;
import clientbench.startup.StartupResult;
import clientbench.startup.StartupRun;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The comparison: one JMH run per step of the {@link Schedule}, a progress line each; slowed rounds again as time
 * allows ({@link Repeats}); then the run's files, report and verdict. A crashing client is a result; an interrupted or
 * empty run stays incomplete. What it compares are its {@link Arms}: clients, or an upgrade's versions each on its jar.
 * One instance makes one run.
 */
public final class ComparisonRun {
    /** Client JVMs of the behaviour run at once: its cases mostly wait, so more than the 2 cores fit. */
    public static final int BEHAVIOUR_JVMS = 4;
    /** The system property the launcher sets to when the user's command began, in epoch milliseconds. */
    static final String COMMAND_STARTED = "clientbench.commandStarted";
    private final RunPlan plan;
    private final PrintStream out;
    private final Arms arms;
    private final InterimVerdicts interim;
    /** What the plan cut to fit its time limit; null: not fitted. */
    private final TimeFit fit;
    private final RunConditions conditions = new RunConditions();
    private final List<Ran> ran = new ArrayList<>();
    /** Each interleaved set's orders, and the forks that left it. */
    private final List<Map<String, Object>> sets = new ArrayList<>();
    /** Each step a client refused, once for every round of its shape, and why. */
    private final List<String> skipped = new ArrayList<>();

    private Path finishedDir;
    /** The rounds' stubs, one at a time ({@link #run} holds them open). */
    private RoundStubs stubs;

    /**
     * @param arms what the run compares: the plan's clients ({@link ClientArms}), or an upgrade's versions ({@link
     *             VersionArms})
     * @param until the shape whose rounds stop once every pair is decided (its rounds already in {@code plan}); null: none
     */
    public ComparisonRun(RunPlan plan, PrintStream out, Arms arms, UntilDecided until) {
        this(plan, out, arms, until, null);
    }

    /** @param fit what {@code plan}'s profile was cut to fit its time limit ({@link TimeFit}); null: not fitted */
    public ComparisonRun(RunPlan plan, PrintStream out, Arms arms, UntilDecided until, TimeFit fit) {
        this.plan = plan;
        this.out = out;
        this.arms = arms;
        this.interim = until == null ? null : new InterimVerdicts(until, out);
        this.fit = fit;
        if (fit != null) {
            conditions.fitted(fit.toJson());
        }
    }

    /**
     * The run's estimate in seconds: the cold starts (with the stub only), the behaviour cases, and each step a client
     * does not refuse. What the progress line counts down and what {@link TimeFit} fits to the limit.
     */
    public static long estimatedSeconds(RunPlan plan, Arms arms) {
        return startupSeconds(plan) + behaviourSeconds(arms) + arms.steps().stream()
                .filter(x -> refusal(arms, x) == null).mapToLong(x -> x.shape().estimatedSeconds()).sum();
    }

    /** The run's folder once its data is whole ({@link #run} finished it); null before, or when no run gave a result. */
    public Path finishedDir() {
        return finishedDir;
    }

    public int run() throws IOException, InterruptedException {
        RunFolder run = RunFolder.create(Checkout.results());
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

        List<String> forkJvmArgs = RunOptions.forkJvmArgs(plan.jdk(), plan.jmh(), run.dir());
        List<Schedule.Step> steps = arms.steps();
        RunEstimate estimate = new RunEstimate(estimatedSeconds(plan, arms));
        announce(steps, estimate, run.dir());
        List<Map<String, Object>> roundRecords;
        try (PrintStream jmhLog = new PrintStream(new FileOutputStream(run.dir().resolve("jmh.log").toFile()), true,
                StandardCharsets.UTF_8); RoundStubs roundStubs = new RoundStubs(plan.jdk(), forkJvmArgs,
                plan.target() != null)) {
            stubs = roundStubs;
            StepContext context = new StepContext(run.dir(), forkJvmArgs, requestFile, jmhLog);
            beforeTheSteps(run.dir(), estimate);
            runSteps(steps, context, run, estimate);
            roundRecords = repeatFlaggedRounds(context, Repeats.budgetSeconds(estimate.totalSeconds(),
                    limitLeft(plan.profile().timeLimit(), estimate.started()), estimate.elapsed(), estimate.doneSeconds()));
        }
        redact(requestFile); // every fork is done with it
        Collected c = Collected.of(ran);
        writeRecords(run, forkJvmArgs, estimate.started(), c, roundRecords, interim == null ? null : interim.record());
        if (!c.failed().isEmpty()) {
            out.println("bench: " + c.failed().size() + " of " + steps.size() + " runs failed (env.json and the report say why)");
        }
        if (c.all().isEmpty()) {
            Runtime.getRuntime().removeShutdownHook(onInterrupt); // not interrupted: it ends here, marked as it is
            run.markIncomplete("no run produced a result: " + String.join("; ", c.failed()));
            System.err.println("bench: no run produced a result; see " + run.dir().resolve("jmh.log"));
            return 1;
        }
        run.finish(); // the data is whole; the report is drawn from the finished folder
        Runtime.getRuntime().removeShutdownHook(onInterrupt);
        finishedDir = run.finalDir();
        return report(finishedDir);
    }

    /** The profile, the priority where it is not the one asked for, what runs and for about how long, the request. */
    private void announce(List<Schedule.Step> steps, RunEstimate estimate, Path dir) {
        Profile p = plan.profile();
        int rounds = p.shapes().stream().mapToInt(Shape::rounds).max().orElse(1);
        out.printf("bench: profile %s (%s)%n", p.name(), p.purpose());
        if (conditions.priorityLine() != null) {
            out.println(conditions.priorityLine());
        }
        if (fit != null) {
            fit.announce().forEach(out::println);
        }
        long clients = clients(plan);
        out.printf("bench: %s, %d shapes, %d runs in %d round%s, about %s; results in %s%n",
                clients == 0 ? "noop only" : clients + (clients == 1 ? " client" : " clients") + " + noop",
                p.shapes().size(), steps.size(), rounds, rounds == 1 ? "" : "s",
                TimeLeft.human(Duration.ofSeconds(estimate.totalSeconds())), dir);
        if (plan.target() != null) {
            out.println("bench: request " + EnvJson.requestSummary(plan));
        }
        arms.announce(out);
    }

    /** The clients of the plan, noop aside. */
    private static long clients(RunPlan plan) {
        return plan.clients().stream().filter(c -> !Adapters.NOOP.equals(c)).count();
    }

    /** Cold starts need the stub. */
    private static boolean startup(RunPlan plan) {
        return plan.profile().startup() != null && plan.target() == null;
    }

    private static long startupSeconds(RunPlan plan) {
        return startup(plan) ? plan.profile().startup().estimatedSeconds((int) clients(plan) + 1) : 0;
    }

    private static long behaviourSeconds(Arms arms) {
        return arms.behaviour() ? arms.behaviourSeconds() : 0;
    }

    /** Before the first step: the cold starts, then the behaviour cases, each a phase of its own. */
    private void beforeTheSteps(Path dir, RunEstimate estimate) throws IOException, InterruptedException {
        if (startup(plan)) {
            conditions.phaseStarts("startup");
            coldStarts(plan.profile().startup(), dir);
            conditions.phaseEnded("startup");
            estimate.done(startupSeconds(plan));
        }
        if (arms.behaviour()) {
            conditions.phaseStarts("behaviour");
            Map<String, Object> r = arms.runBehaviour(dir, out);
            out.printf("[behaviour] done in %s s; %s%n", r.get("wallSeconds"), BehaviourRun.FILE);
            conditions.phaseEnded("behaviour");
            estimate.done(behaviourSeconds(arms));
        }
    }

    /** Every step in order: an interleaved set's steps at once, each other step alone, a look after it where due. */
    private void runSteps(List<Schedule.Step> steps, StepContext context, RunFolder run, RunEstimate estimate)
            throws IOException, InterruptedException {
        int n = 0;
        Random setOrders = new Random(plan.seed() + 2); // the sets' block orders, drawn apart from the rounds'
        for (int i = 0; i < steps.size(); i++) {
            Schedule.Step step = steps.get(i);
            if (step.shape().interleaved()) {
                stubs.close(); // a set's forks are alive at once: each asks a stub of its own
                int from = i;
                n = inItsRound(step, () -> runSet(steps, from, context, setOrders, estimate));
                i = n - 1;
                continue;
            }
            n++;
            if (interim != null && interim.skips(step)) {
                estimate.done(step.shape().estimatedSeconds());
                continue;
            }
            String start = ProgressLine.start(n, steps.size(), step);
            if (refusal(step) != null) {
                sayRefused(start, step, estimate);
                continue;
            }
            Ran r = inItsRound(step, () -> arms.run(step, withRoundStub(step, context)));
            estimate.done(step.shape().estimatedSeconds());
            ran.add(r);
            out.println(ProgressLine.end(start, r, estimate.left()));
            if (interim != null && interim.due(steps, i)) {
                interim.take(run.dir(), step.round(), until -> writeRecords(run, context.forkJvmArgs(), estimate.started(),
                        Collected.of(ran), RoundRecords.of(ran, conditions), until));
            }
        }
    }

    /**
     * {@code context} with the stub of the step's round ({@link RoundStubs}); one that does not start is said, and the
     * round's forks start their own, as each trial's record says.
     */
    private StepContext withRoundStub(Schedule.Step step, StepContext context) throws InterruptedException {
        try {
            return context.withSharedStub(stubs.forStep(step));
        } catch (IOException | RuntimeException e) {
            out.println("bench: the round's stub did not start (" + e.getMessage() + "); this fork starts its own");
            return context;
        }
    }

    /** Steps that run in one round of their shape, marked as a phase and a round of the run's conditions. */
    private interface RoundSteps<T> {
        T run() throws IOException, InterruptedException;
    }

    private <T> T inItsRound(Schedule.Step step, RoundSteps<T> steps) throws IOException, InterruptedException {
        conditions.phaseStarts(step.shape().name());
        conditions.roundStarts(step.shape().name(), step.round());
        T r = steps.run();
        conditions.roundEnded(step.shape().name(), step.round());
        conditions.phaseEnded(step.shape().name());
        return r;
    }

    /** A step its client refuses: said once, for every round of the shape. */
    private void sayRefused(String start, Schedule.Step step, RunEstimate estimate) {
        if (step.round() == 1) {
            skipped.add(step.shape().name() + "/" + step.client() + ": " + refusal(step));
            out.println(ProgressLine.end(start, "skipped: it refuses " + step.shape().protocol() + " (env.json says why)",
                    estimate.left()));
        }
    }

    /**
     * The interleaved set that begins at {@code steps[from]} (its shape's round), then a progress line for each of its
     * runs as a run alone prints it; returns the index after its last step.
     */
    private int runSet(List<Schedule.Step> steps, int from, StepContext context, Random setOrders, RunEstimate estimate)
            throws IOException, InterruptedException {
        Schedule.Step first = steps.get(from);
        int end = from;
        while (end < steps.size() && steps.get(end).shape() == first.shape() && steps.get(end).round() == first.round()) {
            end++;
        }
        List<Schedule.Step> set = steps.subList(from, end).stream().filter(s -> refusal(s) == null).toList();
        List<Ran> setRan = set.isEmpty() ? List.of() : InterleavedSet.run(set, (step, turns, log) -> arms.runInSet(step,
                turns, log, context), context.jmhLog(), context.dir(), out, setOrders, sets);
        estimate.done(set.size() * first.shape().estimatedSeconds());
        ran.addAll(setRan);
        for (int j = from; j < end; j++) {
            Schedule.Step s = steps.get(j);
            String start = ProgressLine.start(j + 1, steps.size(), s);
            Ran r = setRan.stream().filter(x -> x.step() == s).findFirst().orElse(null);
            if (r == null) {
                sayRefused(start, s, estimate);
            } else {
                out.println(ProgressLine.end(start, r, estimate.left()));
            }
        }
        return end;
    }

    private String refusal(Schedule.Step s) {
        return refusal(arms, s);
    }

    private static String refusal(Arms arms, Schedule.Step s) {
        return Adapters.refusal(arms.adapter(s.client()), s.shape().protocol());
    }

    /**
     * The profile's limit less what the command spent before this run began (the launcher's build, the venv): the
     * limit is the user's wait, from {@code clientbench.commandStarted} (epoch ms) where the launcher gives it.
     */
    public static Duration limitLeft(Duration limit, Instant runStarted) {
        Long commandStarted = Long.getLong(COMMAND_STARTED);
        if (limit == null || commandStarted == null) {
            return limit;
        }
        Duration before = Duration.between(Instant.ofEpochMilli(commandStarted), runStarted);
        return before.isNegative() ? limit : limit.minus(before);
    }

    /**
     * Before the first request: every client's cold starts ({@link StartupRun}) and its dependencies ({@link
     * Footprint}), each start's line in startup.log, one line here.
     */
    private void coldStarts(Profile.Startup s, Path dir) throws IOException, InterruptedException {
        out.printf("[startup] %d starts of each client and noop in a fresh JVM (%d with its archive, %d with 10,000"
                + " requests after the first)%n", s.starts(), s.archiveStarts(), s.requestStarts());
        Path root = Checkout.root();
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
     * Judges every round ({@link RoundChecks}), runs the flagged ones again while time allows ({@link Repeats}), and
     * returns env.json's {@code rounds}: per round of each shape, its clients' order, facts and flags, and its repeat.
     */
    private List<Map<String, Object>> repeatFlaggedRounds(StepContext context, long budgetSeconds)
            throws IOException, InterruptedException {
        Map<String, List<Ran>> byRound = RoundRecords.byRound(ran);
        List<RoundChecks.Facts> judged = RoundRecords.judged(byRound);
        // An interleaved set is not run again: its blocks already share each spell of the host among its clients.
        List<RoundChecks.Facts> flagged = !arms.repeatsFlaggedRounds() ? List.<RoundChecks.Facts>of()
                : judged.stream().filter(f -> !f.flags().isEmpty())
                .filter(f -> plan.profile().shapes().stream().noneMatch(x -> x.name().equals(f.shape()) && x.interleaved()))
                .toList();
        Random random = new Random(plan.seed() + 1); // the repeats' orders, drawn apart from the rounds'
        List<Repeats.Repeat> repeats = Repeats.run(flagged, judged, ran, budgetSeconds, (shape, round) -> {
            Shape sh = plan.profile().shapes().stream().filter(x -> x.name().equals(shape)).findFirst().orElseThrow();
            List<Ran> again = new ArrayList<>();
            for (Schedule.Step step : Schedule.block(sh, plan.clients(), round, random)) {
                if (refusal(step) == null) {
                    String start = ProgressLine.start(again.size() + 1, sh.clients(plan.clients()).size(), step);
                    Ran r = arms.run(step, withRoundStub(step, context));
                    out.println(ProgressLine.end(start, r, "repeat"));
                    again.add(r);
                }
            }
            return again;
        }, context.dir(), out);
        return RoundRecords.of(judged, byRound, repeats, conditions);
    }

    /** results.json and .csv, summary.json and env.json of {@code c}: at the end, and before each look. */
    private void writeRecords(RunFolder run, List<String> forkJvmArgs, Instant started, Collected c,
                              List<Map<String, Object>> roundRecords, Map<String, Object> untilDecided) throws IOException {
        ResultFiles.write(plan.jmh(), run.dir(), run.finalDir().getFileName().toString(), c.all(), c.runs());
        JsonFiles.writeAtomically(run.dir().resolve("summary.json"), Summary.json(c.all(), c.runs(), Capacity.read(run.dir())));
        EnvJson.Forks forks = new EnvJson.Forks(forkJvmArgs, RunOptions.describeClassDataSharing(plan));
        Map<String, Object> env = EnvJson.of(plan, started, c.runs(), c.failed(), skipped, roundRecords, forks, run.dir());
        env.put("conditions", conditions.toJson(run.dir()));
        arms.record(env);
        if (!sets.isEmpty()) {
            env.put("sets", sets);
        }
        if (untilDecided != null) {
            env.put("untilDecided", untilDecided);
        }
        JsonFiles.writeAtomically(run.dir().resolve("env.json"), env);
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
     * The verdict (an upgrade's: its ratios), decided once into summary.json and results.csv, then the report; both
     * said on the terminal. 0 when the report was drawn.
     */
    private int report(Path finishedDir) throws IOException, InterruptedException {
        Path requested = plan.jmh().resultFile(finishedDir);
        if (requested != null) {
            out.println("bench: JMH's results as " + plan.jmh().resultFormat() + " in " + requested);
        }
        String verdict = arms.decide(finishedDir);
        boolean reported = verdict != null && Analysis.render(finishedDir, out);
        if (verdict != null) {
            out.println();
            out.print(verdict);
        }
        out.println(reported ? "bench: report " + finishedDir.resolve("report.html") : "bench: results in "
                + finishedDir + " (the report could not be rendered; ./bench report " + finishedDir + " tries again)");
        return reported ? 0 : 1;
    }
}
