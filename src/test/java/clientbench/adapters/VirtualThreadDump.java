package clientbench.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.HotSpotDiagnosticMXBean.ThreadDumpFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The JVM's live virtual threads, to prove close() ends those an adapter started. {@link Thread#getAllStackTraces()}
 * lists platform threads only; a JSON thread dump lists the virtual threads of thread-per-task executors and, with the
 * default {@code jdk.trackAllThreads=true}, those started directly.
 */
final class VirtualThreadDump {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Set<Long> baseline;

    private VirtualThreadDump(Set<Long> baseline) {
        this.baseline = baseline;
    }

    static VirtualThreadDump baseline() {
        return new VirtualThreadDump(live().keySet());
    }

    /** Live virtual threads that were not at the baseline, by name. */
    Map<Long, String> added() {
        Map<Long, String> now = live();
        now.keySet().removeAll(baseline);
        return now;
    }

    /**
     * Waits until no virtual thread is left that was not there at the baseline.
     *
     * @throws AssertionError naming them after {@code max}
     */
    void awaitBackToBaseline(Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        Map<Long, String> left = added();
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
            left = added();
        }
        if (!left.isEmpty()) {
            throw new AssertionError("after close() and " + max.toMillis() + " ms: " + left.size()
                    + " virtual thread(s) left " + left.values());
        }
    }

    /** Thread id to name of every virtual thread in a JSON thread dump taken now. */
    private static Map<Long, String> live() {
        Map<Long, String> virtual = new TreeMap<>();
        try {
            Path dir = Files.createTempDirectory("clientbench-threads");
            Path file = dir.resolve("dump.json");
            try {
                ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                        .dumpThreads(file.toString(), ThreadDumpFormat.JSON);
                for (JsonNode container : JSON.readTree(file.toFile()).path("threadDump").path("threadContainers")) {
                    for (JsonNode t : container.path("threads")) {
                        if (t.path("virtual").asBoolean(false)) {
                            virtual.put(t.path("tid").asLong(), t.path("name").asText());
                        }
                    }
                }
            } finally {
                Files.deleteIfExists(file);
                Files.delete(dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot take a thread dump", e);
        }
        return virtual;
    }
}
