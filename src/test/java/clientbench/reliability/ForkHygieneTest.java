package clientbench.reliability;

import clientbench.adapters.Adapters;
import clientbench.api.Outcome;
import clientbench.harness.record.JsonFiles;
import clientbench.jmh.OpenLoopBenchmark;
import clientbench.testkit.ForkedRuns;
import clientbench.testkit.Prerequisites;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.options.TimeValue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static clientbench.testkit.ForkedRuns.score;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * After a forked JMH trial the client leaves no thread, no connection in any TCP state ({@link TrialLeftoversProfiler})
 * and no fork for JMH to wait for; the accounting matches the stub's. Ended sockets' descriptors are printed only
 * (Apache async's last until a GC). 300 ms cold at 300 req/s: a busy machine may leave some unsent; none may fail.
 */
@org.junit.jupiter.api.Tag("reliability") // a long test: mvn verify (Failsafe), not mvn package
@Timeout(180)
class ForkHygieneTest {

    private static final int RATE = 300;
    private static final long WINDOW_MILLIS = 300;

    static List<String> clients() {
        return Adapters.names();
    }

    @org.junit.jupiter.api.io.TempDir
    static Path hlogs;

    @ParameterizedTest
    @Execution(ExecutionMode.CONCURRENT) // a fork and a stub of its own per client; 300 req/s
    @MethodSource("clients")
    void theTrialLeavesNoThreadOrSocketAndTheForkExitsPromptly(String client) throws Exception {
        Path dir = Files.createDirectories(hlogs.resolve(client)); // not the working directory: that is the repository
        ForkedRuns.Run run = ForkedRuns.runLogged(ForkedRuns.options(OpenLoopBenchmark.class, dir)
                .param("client", client).param("rate", Integer.toString(RATE)).param("settleSeconds", "0")
                .warmupIterations(0).measurementIterations(1).measurementTime(TimeValue.milliseconds(WINDOW_MILLIS))
                .addProfiler(TrialLeftoversProfiler.class));
        String text = run.output();
        assertFalse(text.contains("did not exit"), text);
        assertFalse(text.contains("Non-finished threads"), text);
        RunResult result = run.only();

        JsonNode leftovers = leftovers(dir, text);
        assertEquals(List.of(), names(leftovers.path("threads")), "threads the closed trial left in the fork: " + leftovers);
        Prerequisites.require(leftovers.path("socketsReadable").asBoolean(), "sockets are read from /proc/self/fd (Linux)");
        assertEquals("", leftovers.path("socketTablesUnread").asText(), "the kernel's TCP tables could not be read: " + leftovers);
        assertEquals(List.of(), names(leftovers.path("connections")), "connections the closed trial left in the fork: " + leftovers);
        if (!leftovers.path("otherSockets").isEmpty()) {
            // Not asserted: descriptors of connections that have ended, which a GC releases (see the class comment).
            System.out.println("fork hygiene " + client + ": socket descriptors left open, no connection: " + leftovers.path("otherSockets"));
        }

        double sent = score(result, "n.sent");
        double failures = 0;
        for (Outcome o : Outcome.failures()) {
            failures += score(result, "n.fail." + o.label());
        }
        String figures = "scheduled " + score(result, "n.scheduled") + ", sent " + sent + ", ok " + score(result, "n.ok")
                + ", failed " + failures + ", unsent " + score(result, "n.unsent") + ", stub answered " + score(result, "stub.requests");
        // From the schedule itself: uniform arrivals, ceil(rate x window) due in the window, whatever was sent.
        assertEquals(Math.ceil(RATE * WINDOW_MILLIS / 1_000.0), score(result, "n.scheduled"), 0.0, figures);
        assertEquals(score(result, "n.scheduled"), sent + score(result, "n.dropped"), 0.0, figures);
        assertEquals(0, failures, 0.0, "the stub answers at once: nothing may fail: " + figures);
        assertEquals(sent, score(result, "n.ok"), 0.0, figures);
        assertTrue(sent > 0, figures);
        // Outside the harness: the stub's own count of what it answered in the iteration.
        assertEquals(sent, score(result, "stub.requests"), 0.0, figures);
    }

    private static JsonNode leftovers(Path dir, String jmhOutput) throws Exception {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(f -> f.getFileName().toString().startsWith(TrialLeftoversProfiler.FILE_PREFIX)).toList();
        }
        assertEquals(1, files.size(), "one fork, one check after its trial closed: " + files + "\n" + jmhOutput);
        return JsonFiles.MAPPER.readTree(files.get(0).toFile());
    }

    private static List<String> names(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.isTextual() ? n.asText() : n.toString()));
        return out;
    }
}
