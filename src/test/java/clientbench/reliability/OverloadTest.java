package clientbench.reliability;

import clientbench.adapters.Adapters;
import clientbench.harness.record.JsonFiles;
import clientbench.stub.StubExtension;
import clientbench.stub.StubOptions;
import clientbench.testkit.ChildJvm;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 200,000 req/s offered to every client in a 512 MiB JVM that exits on OutOfMemoryError: it ends cleanly, no descriptor
 * runs out, the iteration ends on time, the shortfall is reported, and each request ends ok, timed out or (ahc, which
 * rejects when busy) rejected, some ok. A deadline on the probe's exit makes a hung probe fail the test, not hang it.
 */
@org.junit.jupiter.api.Tag("reliability") // a long test: mvn verify (Failsafe), not mvn package
@Timeout(120)
@Isolated // it saturates both cores and times the iteration: no other test beside it
class OverloadTest {
    private static final int RATE = 200_000;
    /** Half a second is 100,000 requests: tens of times what any client sends in it, even on a quiet machine. */
    private static final int WINDOW_MS = 500;
    /** A JVM start, a client, one iteration (at most {@code plannedMs}) and a close: seconds; this only ends a hang. */
    private static final long PROBE_DEADLINE_SECONDS = 60;
    /**
     * How far past its plan (window, late-send grace, drain: deadlines the harness keeps) an iteration may end:
     * noticing one passed and snapshotting take tens of ms, a second on 2 cores beside a CPU hog and a saturated
     * client. A harness that sent what fell due instead of counting it unsent would run a minute or more.
     */
    private static final long ITERATION_SLACK_MS = 2_000;
    /** Clients that refuse a request when every connection is busy instead of queueing it (AhcAdapterContractTest). */
    private static final Set<String> REJECT_WHEN_BUSY = Set.of("ahc");

    @RegisterExtension
    static final StubExtension stub = new StubExtension(new StubOptions("127.0.0.1", 0, 2, false, false));

    static List<String> clients() {
        return Adapters.names();
    }

    @ParameterizedTest
    @MethodSource("clients")
    void farPastCapacityTheRunEndsOnTimeAndAccountsForEveryRequest(String client) throws Exception {
        ChildJvm probe = ChildJvm.main(OverloadProbe.class).jvmArgs("-Xmx512m", "-XX:+ExitOnOutOfMemoryError")
                .args(client, stub.uri().toString(), Integer.toString(RATE), Integer.toString(WINDOW_MS));
        long answeredBefore = stub.server().requests();
        List<String> lines;
        try (ChildJvm.Running p = probe.start()) {
            int status = p.exitValue(PROBE_DEADLINE_SECONDS);
            assertEquals(0, status, "probe failed (exit 3: OutOfMemoryError; " + OverloadProbe.THREAD_DIED
                    + ": an exception ended a thread; 1: the run threw):\n" + p.tail(60));
            lines = p.output().lines().toList();
        }
        String result = lines.stream().filter(l -> l.startsWith("RESULT ")).findFirst().orElse(null);
        assertNotNull(result, "no result line:\n" + String.join("\n", lines));
        JsonNode r = JsonFiles.MAPPER.readTree(result.substring(7));
        long answered = stub.server().requests() - answeredBefore;
        String summary = r.toString() + " stub answered " + answered;
        long ok = r.get("ok").asLong();
        long rejected = r.get("rejected").asLong();
        long timeout = r.get("timeout").asLong();
        // The stub's own count: every ok had an answer; nothing was answered that was not sent.
        assertTrue(ok <= answered && answered <= r.get("sent").asLong(), summary);
        assertTrue(r.get("iterationMs").asLong() <= r.get("plannedMs").asLong() + ITERATION_SLACK_MS, "over time: " + summary);
        // The window is exact however far behind the client is: the requests due in it, no more, no fewer.
        assertEquals((long) RATE * WINDOW_MS / 1000, r.get("scheduled").asLong(), 1, "the schedule offered the rate: " + summary);
        assertTrue(r.get("achievedPerSecond").asLong() < RATE, "the shortfall shows: " + summary);
        assertTrue(ok > 0, "the client served nothing: " + summary);
        assertEquals(0, r.get("status").asLong() + r.get("connect").asLong() + r.get("reset").asLong() + r.get("other").asLong(),
                "no error answer, no descriptor exhaustion or connection churn: " + summary);
        if (!REJECT_WHEN_BUSY.contains(client)) {
            assertEquals(0, rejected, "a client that queues when its connections are busy refused requests: " + summary);
        }
        assertEquals(r.get("sent").asLong(), ok + rejected + timeout, "every request sent ended ok, rejected or timed out: " + summary);
        // The drain waits a second past the request timeout: each client ended its requests by its own timeout.
        assertEquals(0, r.get("expired").asLong(), "requests still out at the drain deadline: " + summary);
        System.out.println("overload " + summary);
    }
}
