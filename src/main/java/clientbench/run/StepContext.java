package clientbench.run;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * What every step of a run is given: the run's folder, the forks' JVM flags ({@link RunOptions#forkJvmArgs}), the
 * request file with a target (else null), and jmh.log, where each step's JMH output goes.
 */
record StepContext(Path dir, List<String> forkJvmArgs, Path requestFile, PrintStream jmhLog) {
}
