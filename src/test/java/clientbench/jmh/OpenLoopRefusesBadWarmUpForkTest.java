package clientbench.jmh;

import clientbench.testkit.ForkedRuns;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A warm-up that cannot run is refused in the fork, before the trial starts (no stub JVM, no record): JMH fails
 * the run with the parameter's name and value in its output. Deadline: one JVM start each, about 3 s; 120 s
 * allows for a loaded machine.
 */
@Timeout(120)
class OpenLoopRefusesBadWarmUpForkTest {

    @TempDir
    Path hlogs;

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "warmupRate    | 0   | warmupRate must be > 0 req/s, was 0",
            "warmupRate    | -5  | warmupRate must be > 0 req/s, was -5",
            "settleSeconds | -1  | settleSeconds must be >= 0, was -1",
            "settleSeconds | two | settleSeconds must be an integer, was 'two'"})
    void refusedBeforeTheTrialStarts(String param, String value, String message) throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8)) {
            var options = ForkedRuns.options(OpenLoopBenchmark.class, hlogs)
                    .param("client", "noop").param("rate", "100").param(param, value)
                    .warmupIterations(0).measurementIterations(1).measurementTime(TimeValue.seconds(1)).build();
            assertThrows(RunnerException.class,
                    () -> new Runner(options, OutputFormatFactory.createFormatInstance(out, VerboseMode.NORMAL)).run());
        }
        String text = log.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains(message), "JMH's output names the bad parameter:\n" + text);
        try (var files = Files.list(hlogs)) {
            assertTrue(files.findAny().isEmpty(), "no trial started, nothing recorded");
        }
    }
}
