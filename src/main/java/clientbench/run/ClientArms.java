package clientbench.run;

import clientbench.adapters.Adapters;
import clientbench.behaviour.BehaviourRun;
import clientbench.harness.TurnTaker;
import clientbench.plan.RunPlan;
import clientbench.plan.Schedule;
import clientbench.results.RunFolder;
import clientbench.report.Analysis;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * A comparison's arms: each client of the plan (and noop), every step a JMH run in this JVM, its forks on this JVM's
 * class path; the rounds in the plan's order, a slowed round run again, the verdict at the end.
 */
public final class ClientArms implements Arms {
    private final RunPlan plan;

    public ClientArms(RunPlan plan) {
        this.plan = plan;
    }

    @Override
    public List<Schedule.Step> steps() {
        return plan.steps();
    }

    @Override
    public String adapter(String label) {
        return label;
    }

    /** One step's JMH run; the files it wrote are the trial records and logs new in the folder. */
    @Override
    public Ran run(Schedule.Step step, StepContext context) throws IOException {
        List<Path> before = RunFolder.trialFiles(context.dir());
        ByteArrayOutputStream runLog = new ByteArrayOutputStream();
        Collection<RunResult> r;
        try (PrintStream runOut = new PrintStream(runLog, true, StandardCharsets.UTF_8)) {
            r = new Runner(RunOptions.of(plan, step.shape(), step.client(), step.round(), context.forkJvmArgsWithStub(),
                    context.requestFile()), OutputFormatFactory.createFormatInstance(runOut, VerboseMode.NORMAL)).run();
        } catch (RunnerException e) {
            r = List.of();
            // The exception's own line, which FailureReason reads (JMH's lock held by another run, say).
            runLog.writeBytes((e + "\n").getBytes(StandardCharsets.UTF_8));
        }
        context.jmhLog().write(runLog.toByteArray());
        List<Path> files = new ArrayList<>(RunFolder.trialFiles(context.dir()));
        files.removeAll(before);
        String log = runLog.toString(StandardCharsets.UTF_8);
        // A client that crashes (an OutOfMemoryError holding 15,000 requests, say) is a result, said in a line.
        return r.isEmpty() ? new Ran(step, null, files, FailureReason.of(log))
                : new Ran(step, r.iterator().next(), files, "");
    }

    /** A set's step: a JMH Runner in this JVM, run while the set holds JMH's lock ({@link JmhRuns}). */
    @Override
    public Collection<RunResult> runInSet(Schedule.Step step, String turns, OutputStream log, StepContext context)
            throws RunnerException {
        List<String> args = new ArrayList<>(context.forkJvmArgs());
        args.add("-D" + TurnTaker.PROPERTY + "=" + turns);
        Runner runner = new Runner(RunOptions.of(plan, step.shape(), step.client(), step.round(), args,
                context.requestFile()), OutputFormatFactory.createFormatInstance(new PrintStream(log, true,
                StandardCharsets.UTF_8), VerboseMode.NORMAL));
        return JmhRuns.runLocked(runner);
    }

    /** The cases need the stub. */
    @Override
    public boolean behaviour() {
        return plan.profile().behaviour() && plan.target() == null;
    }

    @Override
    public long behaviourSeconds() {
        int clients = (int) plan.clients().stream().filter(c -> !Adapters.NOOP.equals(c)).count();
        return BehaviourRun.estimatedSeconds(clients, ComparisonRun.BEHAVIOUR_JVMS);
    }

    /** Every client through the cases, {@link ComparisonRun#BEHAVIOUR_JVMS} client JVMs at a time. */
    @Override
    public Map<String, Object> runBehaviour(Path dir, PrintStream out) throws IOException, InterruptedException {
        out.printf("[behaviour] each client through %d cases as shipped (stale connections, deadlines, timeouts,"
                + " pools, bodies, a slow host, big heads, TLS, HTTP/2), %d JVMs at a time%n", BehaviourRun.cases(),
                ComparisonRun.BEHAVIOUR_JVMS);
        return BehaviourRun.run(plan.clients(), plan.jdk(), ComparisonRun.BEHAVIOUR_JVMS, dir, out);
    }

    @Override
    public boolean repeatsFlaggedRounds() {
        return true;
    }

    @Override
    public void announce(PrintStream out) {
    }

    @Override
    public void record(Map<String, Object> env) {
    }

    /** The verdict: the pairs, tiers and the decision table (analysis: decide). */
    @Override
    public String decide(Path finishedDir) throws IOException, InterruptedException {
        return Analysis.decide(finishedDir);
    }
}
