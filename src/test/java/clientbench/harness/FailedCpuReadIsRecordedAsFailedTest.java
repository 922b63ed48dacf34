package clientbench.harness;

import clientbench.api.Outcome;
import clientbench.harness.probe.JvmCounters;
import clientbench.harness.probe.Libc;
import clientbench.harness.record.IterationSnapshot;
import clientbench.harness.record.JsonFiles;
import clientbench.harness.record.Probes;
import com.fasterxml.jackson.databind.JsonNode;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A read of the ns clock that fails (libc's -1) leaves the window's CPU unknown and its record says "failed": it is
 * never filled in from the JVM's 10 ms tick clock, which would put two clocks in one window under an "ns" label.
 */
class FailedCpuReadIsRecordedAsFailedTest {

    @TempDir
    Path dir;

    @Test
    void eachWindowsRecordSaysHowItsCpuWasTaken() throws Exception {
        TrialRecord record = new TrialRecord(dir.resolve("t.hlog"), "noop", Map.of(), Map.of(),
                CpuLayout.plan(java.util.List.of(0), false));
        record.add(window(2_000_000_000L, 3_456_789), true, Map.of());
        record.add(window(2_000_000_000L, -1), true, Map.of());
        record.add(window(0, -1), false, Map.of());

        JsonNode its = JsonFiles.MAPPER.readTree(TrialRecord.fileFor(dir.resolve("t.hlog")).toFile()).path("iterations");
        // This JVM's one source: the ns clock where FFM can call libc, else the bean's ticks.
        assertEquals(Libc.unavailable() == null ? "ns" : "ticks", its.get(0).path("cpuClock").asText());
        // A failed read is "failed" wherever a clock was there to fail: libc's, or the bean's ticks.
        boolean clock = Libc.unavailable() == null
                || ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean;
        assertEquals(clock ? "failed" : "none", its.get(1).path("cpuClock").asText());
        assertEquals("not read", its.get(2).path("cpuClock").asText(), "a window that never started read no clock");
    }

    private static IterationSnapshot window(long windowNanos, long cpuNanos) {
        Histogram h = LoadGenerator.newHistogram();
        return new IterationSnapshot(true, Double.NaN, windowNanos, 0, 0, 0, 0, 0, new long[Outcome.values().length],
                0, 0, h, h.copy(), h.copy(), h.copy(), 0, 0, 0, cpuNanos, -1, -1, -1, -1, Probes.NONE);
    }
}
