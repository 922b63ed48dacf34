package clientbench.jmh;

import clientbench.harness.StubProcess;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** One real JMH run in a forked JVM, as ./bench makes it, for tests that read its RunResult. */
final class ForkedRuns {

    private ForkedRuns() {
    }

    /** The options every forked test starts from: the benchmark, one fork, the profiler, a small heap. */
    static ChainedOptionsBuilder options(Class<? extends LoadBenchmark> benchmark, Path hlogDir) {
        List<String> jvmArgs = new ArrayList<>(StubProcess.jdkFlags());
        jvmArgs.add("-Xmx256m");
        jvmArgs.add("-Dclientbench.hlog.dir=" + hlogDir); // not the working directory: that is the repository
        return new OptionsBuilder()
                .include("^" + Pattern.quote(benchmark.getName() + "." + LoadBenchmark.METHOD) + "$")
                .forks(1)
                .jvmArgs(jvmArgs.toArray(String[]::new))
                .addProfiler(HarnessProfiler.class)
                .shouldFailOnError(true);
    }

    /** Runs it; returns its one result, failing with JMH's output when there is not exactly one. */
    static RunResult run(ChainedOptionsBuilder options) throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        Collection<RunResult> results;
        try (PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8)) {
            results = new Runner(options.build(), OutputFormatFactory.createFormatInstance(out, VerboseMode.NORMAL)).run();
        }
        assertEquals(1, results.size(), log.toString(StandardCharsets.UTF_8));
        return results.iterator().next();
    }

    static double score(RunResult r, String label) {
        var res = r.getAggregatedResult().getSecondaryResults().get(label);
        if (res == null) {
            throw new AssertionError("no " + label + " in the result; it has " + r.getAggregatedResult().getSecondaryResults().keySet());
        }
        return res.getScore();
    }
}
