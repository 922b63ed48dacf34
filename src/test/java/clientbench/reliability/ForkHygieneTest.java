package clientbench.reliability;

import clientbench.adapters.Adapters;
import clientbench.harness.StubProcess;
import clientbench.jmh.HarnessProfiler;
import clientbench.jmh.LoadBenchmark;
import clientbench.jmh.OpenLoopBenchmark;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * After a real JMH trial (a forked JVM, the stub in a JVM of its own), no client thread or socket keeps
 * the fork alive: JMH never has to wait for it ("forked VM did not exit, are there stray running
 * threads?"), and the trial's accounting reaches the JSON.
 */
@org.junit.jupiter.api.Tag("reliability") // a long test: mvn verify (Failsafe), not mvn package
@Timeout(180)
class ForkHygieneTest {

    static List<String> clients() {
        return Adapters.names();
    }

    @org.junit.jupiter.api.io.TempDir
    static java.nio.file.Path hlogs;

    @ParameterizedTest
    @MethodSource("clients")
    void theForkExitsPromptlyAfterTheTrial(String client) throws Exception {
        List<String> jvmArgs = new ArrayList<>(StubProcess.jdkFlags());
        jvmArgs.add("-Xmx256m");
        jvmArgs.add("-Dclientbench.hlog.dir=" + hlogs); // not the working directory: that is the repository
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        long t0 = System.nanoTime();
        Collection<RunResult> results;
        try (PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8)) {
            results = new Runner(new OptionsBuilder()
                    .include("^" + java.util.regex.Pattern.quote(OpenLoopBenchmark.class.getName() + "." + LoadBenchmark.METHOD) + "$")
                    .param("client", client).param("rate", "300")
                    .forks(1).warmupIterations(0).measurementIterations(1).measurementTime(TimeValue.seconds(1))
                    .jvmArgs(jvmArgs.toArray(String[]::new))
                    .addProfiler(HarnessProfiler.class)
                    .shouldFailOnError(true)
                    .build(), OutputFormatFactory.createFormatInstance(out, VerboseMode.NORMAL)).run();
        }
        long seconds = (System.nanoTime() - t0) / 1_000_000_000L;
        String text = log.toString(StandardCharsets.UTF_8);
        assertFalse(text.contains("did not exit"), text);
        assertFalse(text.contains("Non-finished threads"), text);
        assertTrue(seconds < 30, "trial took " + seconds + " s");
        assertEquals(1, results.size(), text);
        RunResult r = results.iterator().next();
        var secondary = r.getAggregatedResult().getSecondaryResults();
        double sent = secondary.get("n.sent").getScore();
        double dropped = secondary.get("n.dropped").getScore();
        assertEquals(secondary.get("n.scheduled").getScore(), sent + dropped, 0.0);
        assertTrue(secondary.get("n.ok").getScore() > 200, "ok " + secondary.get("n.ok").getScore());
    }
}
