package clientbench.harness;

import clientbench.harness.probe.KernelCounters;
import clientbench.harness.record.JsonFiles;
import clientbench.testkit.Prerequisites;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The trial's settings name the window the kernel counted (as JMH-run forks do: their last warm-up window, not the
 * measured ones), and the per-window probes agree: counts in that window, none in the measured one after it.
 */
class KernelCountsNameTheirWindowTest {

    @TempDir
    Path dir;

    @Test
    void theSettingsNameTheWarmUpWindowTheCountsCameFrom() throws Exception {
        Path hlog = dir.resolve("noop.hlog");
        TrialSpec spec = TrialSpec.parse("noop", "", "http1", "1", "0", "0", "0",
                LoadSpec.closed(1, Duration.ofSeconds(1)), hlog);
        try (Trial trial = Trial.start(spec, false)) {
            window(trial, false, false);
            window(trial, true, false); // counted, not measured
            window(trial, false, true); // measured, not counted
        }
        JsonNode t = JsonFiles.MAPPER.readTree(Trial.recordFile(hlog).toFile());
        String said = t.path("settings").path("kernelCounters").asText();
        Prerequisites.require(KernelCounters.unavailable() == null, "perf stat counting this JVM: " + said);
        assertEquals("perf stat -e raw_syscalls:sys_enter,context-switches -p <client JVM> over the last window"
                + " counted: iteration 1, a warm-up window", said);
        JsonNode its = t.path("iterations");
        assertEquals(-1, its.get(0).path("probes").path("syscalls").asLong());
        assertTrue(its.get(1).path("probes").path("syscalls").asLong() > 0, its.get(1).toString());
        assertEquals(false, its.get(1).path("measured").asBoolean());
        assertEquals(-1, its.get(2).path("probes").path("syscalls").asLong(), "the measured window was not counted");
    }

    private static void window(Trial trial, boolean counted, boolean measured) {
        trial.beginIteration(100_000_000L, counted);
        long stopNanos = System.nanoTime() + 100_000_000L;
        BooleanSupplier stop = () -> System.nanoTime() - stopNanos >= 0;
        while (!stop.getAsBoolean()) {
            trial.sendNext(stop);
        }
        trial.endIteration(measured);
    }
}
