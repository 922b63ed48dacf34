package clientbench.harness;

import clientbench.testkit.Prerequisites;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A window's CPU time is read in nanoseconds, not in the 10 ms ticks the JVM's own bean counts on Linux: each tick is
 * +-1.25 us per request in a 2 s window at 4,000 req/s, on every client and on noop, which is subtracted from each.
 */
class ProcessCpuClockTest {

    private static final long TICK_NANOS = 10_000_000;

    @Test
    void theProcessClockIsTheKernelsNanosecondClock() {
        Prerequisites.require(Libc.unavailable() == null, "the FFM API and Linux's clock_gettime: " + Libc.unavailable());
        assertTrue(JvmCounters.describeCpuClock().startsWith("clock_gettime"), JvmCounters.describeCpuClock());
    }

    /** Ten windows of about 3 ms of spinning each: with ticks every one would be a multiple of 10 ms (most of them 0). */
    @Test
    void aWindowsCpuTimeIsNotCountedInTicks() {
        Prerequisites.require(Libc.unavailable() == null, "the FFM API and Linux's clock_gettime: " + Libc.unavailable());
        var threads = ManagementFactory.getThreadMXBean();
        int onTicks = 0;
        for (int w = 0; w < 10; w++) {
            long start = JvmCounters.processCpuNanos();
            long mine = threads.getCurrentThreadCpuTime();
            spin(3_000_000);
            long spun = threads.getCurrentThreadCpuTime() - mine;
            long window = JvmCounters.processCpuNanos() - start;
            // The thread clock (ns, counted apart), read inside the process's window, bounds it from below: the
            // process ran this thread at least.
            assertTrue(window >= spun, "window " + window + " ns < this thread's own " + spun + " ns");
            if (window % TICK_NANOS == 0) {
                onTicks++;
            }
        }
        if (onTicks == 10) {
            fail("every window's CPU time was a multiple of 10 ms: the clock counts ticks");
        }
        assertTrue(onTicks <= 1, onTicks + " of 10 windows fell on a 10 ms tick");
    }

    @Test
    void theClockNeverFalls() {
        long before = JvmCounters.processCpuNanos();
        spin(1_000_000);
        long after = JvmCounters.processCpuNanos();
        assertTrue(before >= 0 && after >= before, before + " then " + after);
        assertEquals(-1, JvmCounters.delta(-1, after));
    }

    private static void spin(long cpuNanos) {
        var threads = ManagementFactory.getThreadMXBean();
        long until = threads.getCurrentThreadCpuTime() + cpuNanos;
        long x = 0;
        while (threads.getCurrentThreadCpuTime() < until) {
            x += System.nanoTime() & 1;
        }
        if (x == -1) {
            throw new AssertionError("kept");
        }
    }
}
