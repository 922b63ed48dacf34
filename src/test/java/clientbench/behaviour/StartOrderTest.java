package clientbench.behaviour;

import clientbench.harness.record.JsonFiles;
import clientbench.jvm.Jdk;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A behaviour run starts its JVMs longest first, each client's length its JVM's wall time in the newest earlier run that
 * has one (never the run itself), a client without one first; behaviour.json keeps its clients in the order given and
 * records the order they started in. Earlier runs here are made-up behaviour.json files.
 */
@Timeout(120)
class StartOrderTest {

    @TempDir
    Path results;

    /** An earlier run's folder holding a behaviour.json with these clients' JVM wall times. */
    void earlierRun(String folder, Map<String, Double> wallMs) throws Exception {
        Map<String, Object> clients = new LinkedHashMap<>();
        wallMs.forEach((c, ms) -> clients.put(c, Map.of("ok", true, "wallMs", ms, "cases", Map.of())));
        Path dir = Files.createDirectories(results.resolve(folder));
        JsonFiles.writeAtomically(dir.resolve(BehaviourRun.FILE), Map.of("wallSeconds", 1.0, "clients", clients));
    }

    @Test
    void eachClientsFigureIsFromTheNewestEarlierRunThatHasIt() throws Exception {
        earlierRun("20261201-000000-host", Map.of("a", 10_000.0, "b", 50_000.0, "c", 20_000.0));
        earlierRun("20261202-000000-host", Map.of("a", 30_000.0, "c", 0.0)); // c's JVM could not run: no figure
        Files.createDirectories(results.resolve("20261203-000000-host")); // a run without behaviour
        Files.writeString(Files.createDirectories(results.resolve("20261204-000000-host")).resolve(BehaviourRun.FILE),
                "{\"clients\": {\"b\": "); // cut short: passed over
        Path now = results.resolve("20261205-000000-host.incomplete");
        earlierRun(now.getFileName().toString(), Map.of("d", 99_000.0)); // the run going now is no earlier run

        Map<String, Double> found = StartOrder.earlierWallMs(results, now, List.of("a", "b", "c", "d", "e"));
        assertEquals(Map.of("a", 30_000.0, "b", 50_000.0, "c", 20_000.0), found);
        assertEquals(List.of("d", "e", "b", "a", "c"), StartOrder.longestFirst(List.of("a", "b", "c", "d", "e"), found),
                "d and e unknown, first in the order given; then b 50 s, a 30 s, c 20 s");
    }

    @Test
    void equalFiguresAndNoFiguresKeepTheOrderGiven() throws Exception {
        assertEquals(List.of("c", "a", "b"), StartOrder.longestFirst(List.of("a", "b", "c"),
                Map.of("a", 5.0, "b", 5.0, "c", 9.0)));
        assertEquals(List.of("b", "a"), StartOrder.longestFirst(List.of("b", "a"), Map.of()));
        assertEquals(Map.of(), StartOrder.earlierWallMs(results.resolve("none"), results.resolve("x"), List.of("a")));
    }

    @Test
    void aRunStartsItsJvmsInThatOrderAndKeepsItsClientsInTheOrderGiven() throws Exception {
        earlierRun("20261201-000000-host", Map.of("short", 1_000.0, "long", 40_000.0));
        Path now = Files.createDirectories(results.resolve("20261202-000000-host.incomplete"));
        // "curl" is no client: each JVM exits at once, which is all the order needs. One at a time, each JVM's
        // progress line comes out in the order the JVMs started.
        List<BehaviourRun.Subject> subjects = new ArrayList<>();
        for (String name : List.of("short", "new", "long")) {
            subjects.add(new BehaviourRun.Subject(name, "curl", null));
        }
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        BehaviourRun.runSubjects(subjects, Jdk.current(), 1, now, new PrintStream(progress, true, StandardCharsets.UTF_8));

        List<String> ended = progress.toString(StandardCharsets.UTF_8).lines().map(l -> l.split("\\s+")[1]).toList();
        assertEquals(List.of("new", "long", "short"), ended, progress.toString(StandardCharsets.UTF_8));
        JsonNode json = JsonFiles.MAPPER.readTree(now.resolve(BehaviourRun.FILE).toFile());
        List<String> startOrder = new ArrayList<>();
        json.path("startOrder").forEach(n -> startOrder.add(n.asText()));
        assertEquals(List.of("new", "long", "short"), startOrder);
        List<String> clients = new ArrayList<>();
        json.path("clients").fieldNames().forEachRemaining(clients::add);
        assertEquals(List.of("short", "new", "long"), clients, "the order given");
    }
}
