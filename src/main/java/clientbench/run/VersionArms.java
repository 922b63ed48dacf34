package clientbench.run;

import clientbench.behaviour.BehaviourRun;
import clientbench.jvm.Jdk;
import clientbench.plan.RunPlan;
import clientbench.plan.Schedule;
import clientbench.plan.Shape;
import clientbench.results.Checkout;
import clientbench.results.RunFolder;
import clientbench.report.Analysis;
import org.openjdk.jmh.results.RunResult;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * An upgrade's arms: a client at two versions ({@link Versions}), the rounds A B B A, none repeated (each round's
 * versions are compared within it), and the upgrade's decision at the end. Each step runs in a JVM of its own on the
 * step's version's jar (the hidden command {@code step}), since a JMH fork runs on its host's class path; the step's JMH output into
 * jmh.log, its result read back. That JVM waits while the fork measures, as this one does in a comparison: the fork's
 * figures are its own JVM's.
 */
public final class VersionArms implements Arms {
    /**
     * The behaviour cases of both versions, two JVMs at once on 2 cores, for the time left: as long as the slower one,
     * which a version whose HTTP/2 cases wait on stalled streams makes about a minute (docs/guide/upgrade.md).
     */
    static final long BEHAVIOUR_SECONDS = 60;
    private final RunPlan plan;
    private final Versions versions;
    private final String sourceProfile;
    private final boolean behaviour;
    private final List<String> stepCommand;

    /**
     * @param behaviour whether each version goes through the behaviour cases first, in a JVM on its jar
     * @param stepCommand the main class and command that run one step in a JVM on a version's jar, as the command line
     *                    names them
     */
    public VersionArms(RunPlan plan, Versions versions, String sourceProfile, boolean behaviour, List<String> stepCommand) {
        this.plan = plan;
        this.versions = versions;
        this.sourceProfile = sourceProfile;
        this.behaviour = behaviour;
        this.stepCommand = List.copyOf(stepCommand);
    }

    /** Every step of the run, A B B A ({@link Schedule#alternating}). */
    @Override
    public List<Schedule.Step> steps() {
        return Schedule.alternating(plan.profile().shapes(), versions.from().label(), versions.to().label());
    }

    @Override
    public String adapter(String label) {
        return versions.adapter(label);
    }

    /** One step on its version's jar; its trial files are those new in the run's folder. */
    @Override
    public Ran run(Schedule.Step step, StepContext context) throws IOException, InterruptedException {
        Path dir = context.dir();
        List<Path> before = RunFolder.trialFiles(dir);
        Path out = Files.createTempFile("clientbench-step", ".ser");
        try {
            Process p = new ProcessBuilder(command(step, dir, out, context.sharedStub())).redirectErrorStream(true).start();
            byte[] log = p.getInputStream().readAllBytes();
            int exit = p.waitFor();
            context.jmhLog().write(log);
            List<Path> files = new ArrayList<>(RunFolder.trialFiles(dir));
            files.removeAll(before);
            List<RunResult> r = exit == 0 && Files.size(out) > 0 ? StepResults.read(out) : List.of();
            return r.isEmpty() ? new Ran(step, null, files, FailureReason.of(new String(log, StandardCharsets.UTF_8)))
                    : new Ran(step, r.get(0), files, "");
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** A step of a set: its JVM given the set's turn passer, its output into {@code log}, its result read back. */
    @Override
    public Collection<RunResult> runInSet(Schedule.Step step, String turns, OutputStream log, StepContext context)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile("clientbench-step", ".ser");
        try {
            List<String> cmd = command(step, context.dir(), out, null);
            cmd.addAll(cmd.indexOf("--"), List.of("--turns", turns));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            try (InputStream in = p.getInputStream()) {
                in.transferTo(log);
            }
            return p.waitFor() == 0 && Files.size(out) > 0 ? StepResults.read(out) : List.of();
        } finally {
            Files.deleteIfExists(out);
        }
    }

    @Override
    public boolean behaviour() {
        return behaviour;
    }

    @Override
    public long behaviourSeconds() {
        return BEHAVIOUR_SECONDS;
    }

    /** The client once on each version's jar, both at once, named as the run names the versions. */
    @Override
    public Map<String, Object> runBehaviour(Path dir, PrintStream out) throws IOException, InterruptedException {
        out.printf("[behaviour] %s through %d cases as shipped, each version in a JVM on its jar, both at once"
                + " (about %d s; --no-behaviour skips it)%n", versions.words(), BehaviourRun.cases(), BEHAVIOUR_SECONDS);
        return BehaviourRun.runSubjects(versions.behaviourSubjects(), plan.jdk(), ComparisonRun.BEHAVIOUR_JVMS, dir, out);
    }

    @Override
    public boolean repeatsFlaggedRounds() {
        return false;
    }

    @Override
    public void announce(PrintStream out) {
        boolean duets = plan.profile().shapes().stream().anyMatch(Shape::interleaved);
        out.println("bench: upgrade " + versions.words() + ": " + (duets ? "a set per round of a fixed-rate or closed"
                + " shape, old, noop and new alive at once, their windows in a new order each block; other shapes "
                : "") + "old, noop, new in odd rounds, new, noop, old in even");
    }

    /** env.json's {@code upgrade}: the client, each version as built and named, the order of each round. */
    @Override
    public void record(Map<String, Object> env) {
        env.put("upgrade", versions.toJson());
    }

    /** Each figure's ratio to/from, its interval and verdict (analysis: upgrade). */
    @Override
    public String decide(Path finishedDir) throws IOException, InterruptedException {
        return Analysis.upgrade(finishedDir);
    }

    /**
     * The step's JVM: the launcher's java and flags, the version's jar, and the step as its command takes it;
     * {@code sharedStub}: the round's stub its forks ask ({@link RoundStubs}), or null for their own.
     */
    List<String> command(Schedule.Step step, Path dir, Path out, String sharedStub) {
        Versions.Arm arm = versions.of(step.client());
        Jdk host = Jdk.current();
        List<String> cmd = new ArrayList<>(List.of(host.java().toString()));
        cmd.addAll(host.flags());
        cmd.add("-Dclientbench.root=" + Checkout.root().toAbsolutePath());
        // Each jar's class-data archives beside it: two versions of one client never share (and rewrite) one.
        cmd.add("-D" + RunOptions.ARCHIVES + "=" + arm.jar().getParent().resolve("cds"));
        cmd.addAll(List.of("-cp", arm.jar().toString()));
        cmd.addAll(stepCommand);
        cmd.addAll(List.of("--dir", dir.toAbsolutePath().toString(), "--profile", sourceProfile, "--shape", step.shape().name(),
                "--rounds", Integer.toString(step.rounds()), "--round", Integer.toString(step.round()),
                "--blocks", Integer.toString(step.shape().blocks()),
                "--client", versions.adapter(step.client()), "--jdk", plan.jdk().java().toAbsolutePath().getParent().getParent().toString(),
                "--out", out.toString()));
        // Both arms' stubs on the launcher's jar: a bump of a library the stub shares moves the client alone.
        cmd.addAll(List.of("--stub-class-path", System.getProperty("java.class.path")));
        if (sharedStub != null) {
            cmd.addAll(List.of("--shared-stub", sharedStub));
        }
        if (versions.spinNanos(step.client()) > 0) {
            cmd.addAll(List.of("--plant-spin-ns", Long.toString(versions.spinNanos(step.client()))));
        }
        if (!versions.adapter(step.client()).equals(step.client())) {
            cmd.addAll(List.of("--variant", step.client()));
        }
        cmd.add("--");
        cmd.addAll(plan.jmh().args());
        return cmd;
    }
}
