package clientbench.testkit;

import clientbench.harness.record.JsonFiles;
import clientbench.harness.StubProcess;
import clientbench.jmh.HarnessProfiler;
import clientbench.jmh.LoadBenchmark;
import com.fasterxml.jackson.databind.JsonNode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** One real JMH run in a forked JVM, as ./bench makes it, for tests that read its RunResult and its trial's record. */
public final class ForkedRuns {

    private ForkedRuns() {
    }

    /** The options every forked test starts from: the benchmark, one fork, the profiler, a small heap. */
    public static ChainedOptionsBuilder options(Class<? extends LoadBenchmark> benchmark, Path hlogDir) {
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

    /** What a run returned and what JMH printed meanwhile. */
    public record Run(Collection<RunResult> results, String output) {

        /** Its one result, failing with JMH's output when there is not exactly one. */
        public RunResult only() {
            assertEquals(1, results.size(), output);
            return results.iterator().next();
        }
    }

    /** Runs it, JMH's output kept for the test's messages. */
    public static Run runLogged(ChainedOptionsBuilder options) throws RunnerException {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        Collection<RunResult> results;
        try (PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8)) {
            results = new Runner(options.build(), OutputFormatFactory.createFormatInstance(out, VerboseMode.NORMAL)).run();
        }
        return new Run(results, log.toString(StandardCharsets.UTF_8));
    }

    /** Runs it; returns its one result, failing with JMH's output when there is not exactly one. */
    public static RunResult run(ChainedOptionsBuilder options) throws RunnerException {
        return runLogged(options).only();
    }

    /** A secondary metric's score over the run, failing with the labels it has when there is no such metric. */
    public static double score(RunResult r, String label) {
        var res = r.getAggregatedResult().getSecondaryResults().get(label);
        if (res == null) {
            throw new AssertionError("no " + label + " in the result; it has " + r.getAggregatedResult().getSecondaryResults().keySet());
        }
        return res.getScore();
    }

    /** The trial's record (its .trial.json) in {@code hlogDir}, which must hold exactly one: one fork, one trial. */
    public static JsonNode trialRecord(Path hlogDir) throws IOException {
        List<Path> records;
        try (Stream<Path> files = Files.list(hlogDir)) {
            records = files.filter(f -> f.getFileName().toString().endsWith(".trial.json")).toList();
        }
        assertEquals(1, records.size(), "one trial, one record: " + records);
        return JsonFiles.MAPPER.readTree(records.get(0).toFile());
    }
}
