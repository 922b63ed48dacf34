package clientbench.harness;

import clientbench.testkit.Prerequisites;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KernelCountersTest {

    @Test
    void perfsCsvGivesEachEventsCountAndAbsentForOneNotCounted() {
        List<String> csv = List.of("# started on Wed Nov 25 23:04:07 2026", "",
                "100137,,raw_syscalls:sys_enter,38017579,100.00,,", "<not counted>,,context-switches,0,0.00,,");
        assertEquals(new KernelCounters.Counts(100137, -1), KernelCounters.parse(csv));
    }

    /**
     * A count kept outside perf: this test's own stat calls, each at least one system call of this JVM. System calls
     * per request is a verdict column, so a machine without perf fails here under CI (.ci/run installs it).
     */
    @Test
    void aWindowCountsAtLeastTheSystemCallsThisThreadMade() throws Exception {
        Path file = Files.createTempFile("kernel-counters", ".txt");
        int calls = 5_000;
        KernelCounters.Window w = KernelCounters.start();
        for (int i = 0; i < calls; i++) {
            Files.getLastModifiedTime(file);
        }
        KernelCounters.Counts c = w.stop();
        Files.delete(file);
        String unavailable = KernelCounters.unavailable();
        if (unavailable != null) {
            assertEquals(KernelCounters.Counts.ABSENT, c, "absent, never guessed");
            assertTrue(KernelCounters.describe("x").startsWith("absent: "), KernelCounters.describe("x"));
        }
        Prerequisites.require(unavailable == null, "perf stat counting this JVM (Debian: apt-get install linux-perf): "
                + unavailable);
        assertTrue(c.syscalls() >= calls, c + " for " + calls + " stat calls");
        assertTrue(c.contextSwitches() >= 0, c.toString());
    }
}
