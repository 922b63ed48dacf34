package clientbench.cli;

import clientbench.jvm.Jdk;
import clientbench.plan.RunPlan;
import clientbench.plan.Schedule;
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

/**
 * How an upgrade's run runs each step: in a JVM of its own on the step's version's jar ({@link StepCommand}), since a
 * JMH fork runs on its host's class path; the step's JMH output into jmh.log, its result read back. That JVM waits
 * while the fork measures, as this one does in a comparison: the fork's figures are its own JVM's.
 */
final class ArmSteps {
    /**
     * The behaviour cases of both versions, two JVMs at once on 2 cores, for the time left: as long as the slower one,
     * which a version whose HTTP/2 cases wait on stalled streams makes about a minute (docs/guide/upgrade.md).
     */
    static final long BEHAVIOUR_SECONDS = 60;
    private final RunPlan plan;
    private final Arms arms;
    private final String sourceProfile;
    private final boolean behaviour;

    /** @param behaviour whether each version goes through the behaviour cases first, in a JVM on its jar */
    ArmSteps(RunPlan plan, Arms arms, String sourceProfile, boolean behaviour) {
        this.plan = plan;
        this.arms = arms;
        this.sourceProfile = sourceProfile;
        this.behaviour = behaviour;
    }

    Arms arms() {
        return arms;
    }

    boolean behaviour() {
        return behaviour;
    }

    /** Every step of the run, A B B A ({@link Schedule#alternating}). */
    List<Schedule.Step> steps() {
        return Schedule.alternating(plan.profile().shapes(), arms.old().label(), arms.neu().label());
    }

    /** One step on its version's jar; its trial files are those new in {@code dir}. */
    ComparisonRun.Ran run(Schedule.Step step, PrintStream jmhLog, Path dir) throws IOException, InterruptedException {
        List<Path> before = ComparisonRun.trialFiles(dir);
        Path out = Files.createTempFile("clientbench-step", ".ser");
        try {
            Process p = new ProcessBuilder(command(step, dir, out)).redirectErrorStream(true).start();
            byte[] log = p.getInputStream().readAllBytes();
            int exit = p.waitFor();
            jmhLog.write(log);
            List<Path> files = new ArrayList<>(ComparisonRun.trialFiles(dir));
            files.removeAll(before);
            List<RunResult> r = exit == 0 && Files.size(out) > 0 ? StepCommand.read(out) : List.of();
            return r.isEmpty() ? new ComparisonRun.Ran(step, null, files, FailureReason.of(new String(log, StandardCharsets.UTF_8)))
                    : new ComparisonRun.Ran(step, r.get(0), files, "");
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** A step of a set: its JVM given the set's conductor, its output into {@code log}, its result read back. */
    Collection<RunResult> runInSet(Schedule.Step step, String turns, OutputStream log, Path dir)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile("clientbench-step", ".ser");
        try {
            List<String> cmd = command(step, dir, out);
            cmd.addAll(cmd.indexOf("--"), List.of("--turns", turns));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            try (InputStream in = p.getInputStream()) {
                in.transferTo(log);
            }
            return p.waitFor() == 0 && Files.size(out) > 0 ? StepCommand.read(out) : List.of();
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** The step's JVM: the launcher's java and flags, the version's jar, and the step as {@link StepCommand} takes it. */
    List<String> command(Schedule.Step step, Path dir, Path out) {
        Arms.Arm arm = arms.of(step.client());
        Jdk host = Jdk.current();
        List<String> cmd = new ArrayList<>(List.of(host.java().toString()));
        cmd.addAll(host.flags());
        cmd.add("-Dclientbench.root=" + Report.root().toAbsolutePath());
        // Each jar's class-data archives beside it: two versions of one client never share (and rewrite) one.
        cmd.add("-D" + RunOptions.ARCHIVES + "=" + arm.jar().getParent().resolve("cds"));
        cmd.addAll(List.of("-cp", arm.jar().toString(), Bench.class.getName(), "step",
                "--dir", dir.toAbsolutePath().toString(), "--profile", sourceProfile, "--shape", step.shape().name(),
                "--rounds", Integer.toString(step.rounds()), "--round", Integer.toString(step.round()),
                "--blocks", Integer.toString(step.shape().blocks()),
                "--client", arms.adapter(step.client()), "--jdk", plan.jdk().java().toAbsolutePath().getParent().getParent().toString(),
                "--out", out.toString()));
        if (!arms.adapter(step.client()).equals(step.client())) {
            cmd.addAll(List.of("--variant", step.client()));
        }
        cmd.add("--");
        cmd.addAll(plan.jmh().args());
        return cmd;
    }
}
