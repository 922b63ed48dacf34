package clientbench.reliability;

import clientbench.adapters.Adapters;
import clientbench.harness.JsonFiles;
import clientbench.stub.StubOptions;
import clientbench.stub.StubServer;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 200,000 req/s offered to every client in a JVM with a 512 MiB heap: no OutOfMemoryError, no file
 * descriptor exhaustion (it would show as connect or reset failures), the run ends within its planned
 * time plus 10%, the shortfall is reported (achieved rate, drops), and the accounting balances exactly.
 */
@org.junit.jupiter.api.Tag("reliability") // a long test: mvn verify (Failsafe), not mvn package
@Timeout(120)
class OverloadTest {
    private static final int RATE = 200_000;
    private static final int WINDOW_MS = 2_000;
    private static StubServer stub;

    @BeforeAll
    static void start() throws Exception {
        stub = StubServer.start(new StubOptions("127.0.0.1", 0, 2, false, false));
    }

    @AfterAll
    static void stop() {
        stub.close();
    }

    static List<String> clients() {
        return Adapters.names();
    }

    @ParameterizedTest
    @MethodSource("clients")
    void farPastCapacityTheRunEndsOnTimeAndAccountsForEveryRequest(String client) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-cp", System.getProperty("java.class.path")));
        cmd.addAll(clientbench.harness.StubProcess.jdkFlags());
        cmd.addAll(List.of(OverloadProbe.class.getName(), client, stub.uri().toString(), Integer.toString(RATE),
                Integer.toString(WINDOW_MS)));
        long answeredBefore = stub.requests();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        JsonNode r = null;
        StringBuilder output = new StringBuilder();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                if (line.startsWith("RESULT ")) {
                    r = JsonFiles.MAPPER.readTree(line.substring(7));
                } else if (output.length() < 4_000) {
                    output.append(line).append('\n');
                }
            }
        }
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "probe ended");
        assertEquals(0, p.exitValue(), "probe died (OutOfMemoryError?):\n" + output);
        assertNotNull(r, "no result line:\n" + output);
        long answered = stub.requests() - answeredBefore;
        String summary = r.toString() + " stub answered " + answered;
        // The stub's own count: every ok had an answer; nothing was answered that was not sent.
        assertTrue(r.get("ok").asLong() <= answered && answered <= r.get("sent").asLong(), summary);
        assertTrue(r.get("elapsedMs").asLong() <= r.get("plannedMs").asLong() * 1.1, "over time: " + summary);
        // The window is exact however far behind the client is: the requests due in it, no more, no fewer.
        assertEquals(RATE * WINDOW_MS / 1000, r.get("scheduled").asLong(), 1, "the schedule offered the rate: " + summary);
        assertTrue(r.get("achievedPerSecond").asLong() < RATE, "the shortfall shows: " + summary);
        assertEquals(0, r.get("connect").asLong() + r.get("reset").asLong() + r.get("other").asLong(),
                "no descriptor exhaustion or connection churn: " + summary);
        System.out.println("overload " + summary);
    }
}
