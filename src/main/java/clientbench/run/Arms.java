package clientbench.run;

import clientbench.plan.Schedule;
import org.openjdk.jmh.results.RunResult;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What a run compares, its arms: each a client ({@link ClientArms}, a comparison) or a client at a version ({@link
 * VersionArms}, an upgrade); their steps in order, how a step of one runs, and how the run ends. {@link ComparisonRun}
 * runs either the same way.
 */
interface Arms {

    /** Every step of the run, in order. */
    List<Schedule.Step> steps();

    /** The adapter a step's client runs (an upgrade's version: its client's). */
    String adapter(String label);

    /** One step alone; its trial files are those new in the run's folder. */
    Ran run(Schedule.Step step, StepContext context) throws IOException, InterruptedException;

    /**
     * A step of an interleaved set: its forks given the set's turn passer ({@code turns}), its output into {@code log}.
     */
    Collection<RunResult> runInSet(Schedule.Step step, String turns, OutputStream log, StepContext context)
            throws Exception;

    /** Whether the arms go through the behaviour cases before the first step, and about how long that takes. */
    boolean behaviour();

    long behaviourSeconds();

    /** The behaviour cases, one line on {@code out} first; returns behaviour.json's facts. */
    Map<String, Object> runBehaviour(Path dir, PrintStream out) throws IOException, InterruptedException;

    /** Whether a round the host slowed runs again at the end ({@link Repeats}). */
    boolean repeatsFlaggedRounds();

    /** Says on {@code out} how the arms take turns, where the run's first lines do not. */
    void announce(PrintStream out);

    /** Adds to env.json what the arms are, where the plan does not say it. */
    void record(Map<String, Object> env);

    /** Decides the finished run once into its files and returns the verdict's words; null when it could not. */
    String decide(Path finishedDir) throws IOException, InterruptedException;
}
