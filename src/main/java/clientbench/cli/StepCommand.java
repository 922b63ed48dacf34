package clientbench.cli;

import clientbench.harness.PlantedCost;
import clientbench.harness.StubProcess;
import clientbench.jvm.Jdk;
import clientbench.plan.JmhArgs;
import clientbench.plan.Profile;
import clientbench.plan.RunPlan;
import clientbench.plan.Shape;
import clientbench.run.JmhRuns;
import clientbench.run.RunOptions;
import clientbench.run.StepResults;
import clientbench.run.VersionArms;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code Bench step}, not for users: one step of an upgrade's run ({@link VersionArms}) in a JVM of its own on one
 * version's jar, so that JMH's fork, which takes its host's class path, runs that version. The result comes back
 * serialized into {@code --out} (JMH's results are {@link java.io.Serializable}).
 */
@Command(name = "step", hidden = true, description = "One step of an upgrade's run, on this JVM's jar (./bench upgrade runs it).")
final class StepCommand implements Callable<Integer>, Bench.Checked {

    @Option(names = "--dir", required = true)
    Path dir;
    @Option(names = "--profile", required = true)
    String profile;
    @Option(names = "--shape", required = true)
    String shape;
    @Option(names = "--rounds", required = true)
    int rounds;
    @Option(names = "--round", required = true)
    int round;
    @Option(names = "--blocks", description = "an interleaved set's blocks (0: the fork runs alone)")
    int blocks;
    @Option(names = "--turns", description = "the set's turn passer, HOST:PORT (TurnTaker.PROPERTY)")
    String turns;
    @Option(names = "--client", required = true)
    String client;
    @Option(names = "--variant", description = "the record's client name: the version this fork runs")
    String variant;
    @Option(names = "--jdk", required = true)
    Path jdk;
    @Option(names = "--stub-class-path", description = "the stubs' class path (StubProcess.CLASS_PATH); default the fork's")
    String stubClassPath;
    @Option(names = "--shared-stub", description = "the round's stub its forks ask (StubProcess.SHARED); default their own")
    String sharedStub;
    @Option(names = "--plant-spin-ns", description = "CPU each completion spins (PlantedCost): a known regression")
    long plantSpinNanos;
    @Option(names = "--out", required = true)
    Path out;
    @Parameters
    List<String> jmhArgs = new ArrayList<>();

    @Override
    public int check() {
        return 0;
    }

    @Override
    public Integer call() throws Exception {
        Profile p = Profile.named(profile);
        Shape s = p.shapes().stream().filter(x -> x.name().equals(shape)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no shape " + shape + " in profile " + profile))
                .inRounds(rounds, blocks);
        RunPlan plan = new RunPlan(p, List.of(client), null, JmhArgs.parse(jmhArgs), Jdk.at(jdk));
        List<String> forkJvmArgs = new ArrayList<>(RunOptions.forkJvmArgs(plan.jdk(), plan.jmh(), dir));
        if (variant != null) {
            // the .hlog folder stays last
            forkJvmArgs.add(forkJvmArgs.size() - 1, "-D" + clientbench.jmh.LoadState.VARIANT + "=" + variant);
        }
        if (turns != null) {
            forkJvmArgs.add(forkJvmArgs.size() - 1, "-D" + clientbench.harness.TurnTaker.PROPERTY + "=" + turns);
        }
        if (stubClassPath != null) {
            forkJvmArgs.add(forkJvmArgs.size() - 1, "-D" + StubProcess.CLASS_PATH + "=" + stubClassPath);
        }
        if (sharedStub != null) {
            forkJvmArgs.add(forkJvmArgs.size() - 1, "-D" + StubProcess.SHARED + "=" + sharedStub);
        }
        if (plantSpinNanos > 0) {
            forkJvmArgs.add(forkJvmArgs.size() - 1, "-D" + PlantedCost.PROPERTY + "=" + plantSpinNanos);
        }
        Collection<RunResult> r;
        try {
            Runner runner = new Runner(RunOptions.of(plan, s, client, round, forkJvmArgs, null),
                    OutputFormatFactory.createFormatInstance(System.out, VerboseMode.NORMAL));
            // In a set the launcher holds JMH's lock for all of its steps at once (JmhRuns).
            r = turns != null ? JmhRuns.runLocked(runner) : runner.run();
        } catch (RunnerException e) {
            System.out.println(e); // the line FailureReason reads
            return 1;
        }
        StepResults.write(out, new ArrayList<>(r));
        return 0;
    }
}
