package clientbench.behaviour;

import clientbench.harness.record.JsonFiles;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The order a behaviour run starts its client JVMs in: the longest expected first (longest-processing-time
 * scheduling), so that no long JVM starts last while the other slots sit idle. A client's expected length is its JVM's
 * wall time in the newest earlier run that has one.
 */
final class StartOrder {

    private StartOrder() {
    }

    /**
     * {@code names}, the longest expected first ({@code expectedMs}: name -> ms). A name without a figure goes before
     * all: unknown may be long, and a long JVM started last ends the phase late, while a short one started first costs
     * little. Names without a figure, and equal figures, keep the order given.
     */
    static List<String> longestFirst(List<String> names, Map<String, Double> expectedMs) {
        return names.stream() // sorted is stable on an ordered stream
                .sorted(Comparator.comparingDouble(n -> -expectedMs.getOrDefault(n, Double.POSITIVE_INFINITY)))
                .toList();
    }

    /**
     * Each of {@code names}' JVM wall time (ms) in the newest run folder under {@code runs} (by name: they begin with
     * their start time) whose behaviour.json has it, {@code except} (the run now going) left out; a name no run has is
     * absent, and a behaviour.json that cannot be read is passed over: the order is a matter of speed, not of results.
     */
    static Map<String, Double> earlierWallMs(Path runs, Path except, Collection<String> names) throws IOException {
        Map<String, Double> found = new HashMap<>();
        if (!Files.isDirectory(runs)) {
            return found;
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(runs)) {
            files = s.filter(d -> !d.toAbsolutePath().equals(except.toAbsolutePath()))
                    .map(d -> d.resolve(BehaviourRun.FILE)).filter(Files::isRegularFile)
                    .sorted(Comparator.comparing((Path f) -> f.getParent().getFileName().toString()).reversed())
                    .toList();
        }
        for (Path f : files) {
            if (found.keySet().containsAll(names)) {
                break;
            }
            JsonNode clients;
            try {
                clients = JsonFiles.MAPPER.readTree(f.toFile()).path("clients");
            } catch (IOException e) {
                continue;
            }
            for (String name : names) {
                double ms = clients.path(name).path("wallMs").asDouble(0);
                if (ms > 0) {
                    found.putIfAbsent(name, ms);
                }
            }
        }
        return found;
    }
}
