package clientbench.startup;

import clientbench.harness.record.JsonFiles;
import clientbench.harness.StubProcess;
import clientbench.jvm.Jdk;
import clientbench.stub.StubServer;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A probe JVM sends its client's first request once, and the stub, counting on its own, answers exactly that one
 * (and the ones asked after it) per JVM; noop sends none. A run records every start of every client in every round,
 * noop's included, in a new order each round, with the stub's own count beside it.
 */
@Timeout(300)
class ColdStartCountsOneFirstRequestPerJvmTest {

    @TempDir
    Path dir;

    static StartupPlan plan(List<String> clients, int starts, Path root) {
        return StartupPlan.of(clients, starts, Jdk.current(), root);
    }

    @Test
    void eachProbeJvmMakesExactlyOneFirstRequestByTheStubsOwnCount() throws Exception {
        StartupPlan plan = plan(List.of("jdk", "okhttp"), 1, dir).withRequestsAfterFirst(0);
        try (StubProcess stub = StubProcess.start(false, (List<Integer>) null)) {
            for (String client : plan.clients()) {
                StubServer.Stats before = stub.mark();
                ProbeJvm.Ended e = ProbeJvm.run(plan.command(client, false, stub.uri().toString(), 1), plan.bound(),
                        new AtomicReference<>());
                StubServer.Stats after = stub.stats();
                assertNotNull(e.report(), client + ": " + e.problem());
                assertNull(e.report().failure(), client + ": " + e.report().failure());
                assertEquals(0, e.exitCode(), client);
                long expected = client.equals("noop") ? 0 : 1; // noop touches no network
                assertEquals(expected, after.requests() - before.requests(), client + ": the stub's own count");
                assertTrue(e.report().classesLoaded() > 0 && e.report().afterFirst().threads() > 0, e.report().toString());
            }
        }
    }

    @Test
    void aRunRecordsEveryStartInterleavedWithTheStubsCount() throws Exception {
        int after = 3;
        StartupPlan plan = plan(List.of("jdk"), 3, dir).withRequestsAfterFirst(after);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StartupResult result = StartupRun.run(plan, dir, new PrintStream(out, true, StandardCharsets.UTF_8));

        JsonNode file = JsonFiles.MAPPER.readTree(dir.resolve(StartupRun.FILE).toFile());
        assertEquals(List.of("jdk", "noop"), iterable(file.get("clients").fieldNames()), "noop, the baseline, added");
        assertEquals(3, file.get("roundsDone").asInt());
        Set<String> orders = new HashSet<>();
        for (int round = 1; round <= 3; round++) {
            StringBuilder order = new StringBuilder();
            for (String client : List.of("jdk", "noop")) {
                JsonNode start = file.get("clients").get(client).get(round - 1);
                assertEquals(round, start.get("round").asInt());
                assertTrue(start.get("ok").asBoolean(), start.toString());
                assertEquals(client.equals("noop") ? 0 : 1 + after, start.get("stubRequests").asLong(),
                        client + " round " + round + ": the stub's own count, the first request and the " + after + " after it");
                assertEquals(after, start.get("requests").get("ok").asInt());
                order.append(start.get("order").asInt());
            }
            orders.add(order.toString());
        }
        assertEquals(3, result.clients().get("jdk").size());
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(6, lines.size(), "one line per start: " + lines);
        assertTrue(lines.stream().allMatch(l -> l.length() <= StartupRun.LINE_CHARS), lines.toString());
    }

    private static List<String> iterable(java.util.Iterator<String> it) {
        List<String> out = new ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }
}
