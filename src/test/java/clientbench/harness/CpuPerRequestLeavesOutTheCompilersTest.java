package clientbench.harness;

import clientbench.api.Outcome;
import clientbench.harness.probe.CpuPerRequest;
import clientbench.harness.record.IterationSnapshot;
import clientbench.harness.record.JsonFiles;
import clientbench.harness.record.Probes;
import com.fasterxml.jackson.databind.JsonNode;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CPU per request is the JVM's CPU time less its JIT compilers' and the connection sampler's, as JMH's metric gives it
 * and as a window's record is read back (the round checks, the knee's probes): both from the same recorded clocks.
 */
class CpuPerRequestLeavesOutTheCompilersTest {

    @TempDir
    Path dir;

    @Test
    void theCompilersTimeIsLeftOutAndAnUnreadOneLeavesTheWholeTime() {
        assertEquals(150.0, CpuPerRequest.micros(2_000_000, 500_000, -1, 10), 1e-9);
        assertEquals(200.0, CpuPerRequest.micros(2_000_000, -1, -1, 10), 1e-9, "compilers unread: the JVM's whole time");
        assertEquals(120.0, CpuPerRequest.micros(2_000_000, 500_000, 300_000, 10), 1e-9, "the sampler's time is not the client's");
        assertEquals(170.0, CpuPerRequest.micros(2_000_000, -1, 300_000, 10), 1e-9);
        assertTrue(Double.isNaN(CpuPerRequest.micros(-1, 500_000, -1, 10)), "the JVM's own read failed: unknown");
        assertTrue(Double.isNaN(CpuPerRequest.micros(2_000_000, 0, -1, 0)), "nothing sent");
    }

    @Test
    void theMetricAndTheRecordReadBackAgree() throws Exception {
        TrialRecord record = new TrialRecord(dir.resolve("t.hlog"), "noop", Map.of(), Map.of(),
                CpuLayout.plan(List.of(0), false));
        IterationSnapshot compiled = window(3_000_000, 1_200_000, -1);
        IterationSnapshot unread = window(3_000_000, -1, -1);
        IterationSnapshot sampled = window(3_000_000, 1_200_000, 700_000);
        record.add(compiled, true, Map.of());
        record.add(unread, true, Map.of());
        record.add(sampled, true, Map.of());

        JsonNode its = JsonFiles.MAPPER.readTree(TrialRecord.fileFor(dir.resolve("t.hlog")).toFile()).path("iterations");
        assertEquals(1_200_000, its.get(0).path("probes").path("compilerCpuNanos").asLong());
        assertEquals(1_800_000, CpuPerRequest.nanos(its.get(0)));
        assertEquals(compiled.cpuMicrosPerRequest(), CpuPerRequest.nanos(its.get(0)) / 1e3 / 100, 1e-9);
        assertEquals(3_000_000, CpuPerRequest.nanos(its.get(1)));
        assertEquals(unread.cpuMicrosPerRequest(), 30.0, 1e-9);
        assertEquals(700_000, its.get(2).path("probes").path("samplerCpuNanos").asLong());
        assertEquals(1_100_000, CpuPerRequest.nanos(its.get(2)));
        assertEquals(sampled.cpuMicrosPerRequest(), 11.0, 1e-9);
    }

    private static IterationSnapshot window(long cpuNanos, long compilerCpuNanos, long samplerCpuNanos) {
        Histogram h = LoadGenerator.newHistogram();
        Probes p = new Probes(1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, compilerCpuNanos, -1, -1, -1, -1,
                samplerCpuNanos);
        return new IterationSnapshot(true, 1000, 1_000_000_000L, 0, 100, 100, 0, 0, new long[Outcome.values().length],
                0, 0, h, h.copy(), h.copy(), h.copy(), 0, 0, 0, cpuNanos, -1, -1, -1, -1, p);
    }
}
