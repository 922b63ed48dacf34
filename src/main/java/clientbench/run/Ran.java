package clientbench.run;

import clientbench.plan.Schedule;
import org.openjdk.jmh.results.RunResult;

import java.nio.file.Path;
import java.util.List;

/** One step as it ran: its result (null when it failed or was skipped), the files it wrote, why it failed. */
record Ran(Schedule.Step step, RunResult result, List<Path> files, String failure) {
}
