package clientbench.run;

import clientbench.harness.StubProcess;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What every step of a run is given: the run's folder, the forks' JVM flags ({@link RunOptions#forkJvmArgs}), the
 * request file with a target (else null), jmh.log, where each step's JMH output goes, and the round's stub
 * ({@link RoundStubs}; null: each fork starts its own).
 */
record StepContext(Path dir, List<String> forkJvmArgs, Path requestFile, PrintStream jmhLog, String sharedStub) {

    StepContext(Path dir, List<String> forkJvmArgs, Path requestFile, PrintStream jmhLog) {
        this(dir, forkJvmArgs, requestFile, jmhLog, null);
    }

    /** This context for a step whose forks ask {@code stub} ({@link StubProcess#describe()}; null: their own). */
    StepContext withSharedStub(String stub) {
        return new StepContext(dir, forkJvmArgs, requestFile, jmhLog, stub);
    }

    /** The forks' flags with the round's stub named, before the last (the .hlog folder stays last). */
    List<String> forkJvmArgsWithStub() {
        if (sharedStub == null) {
            return forkJvmArgs;
        }
        List<String> a = new ArrayList<>(forkJvmArgs);
        a.add(Math.max(0, a.size() - 1), "-D" + StubProcess.SHARED + "=" + sharedStub);
        return a;
    }
}
