package clientbench.harness.probe;

import clientbench.testkit.Prerequisites;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A window's CPU time is read in nanoseconds, not in the 10 ms ticks the JVM's own bean counts on Linux: each tick is
 * +-1.25 us per request in a 2 s window at 4,000 req/s, on every client and on noop, which is subtracted from each.
 */
class ProcessCpuClockTest {

    private static final long TICK_NANOS = 10_000_000;
    /** CPU time each of two threads spins; then the process idles, so wall time and CPU time part by far. */
    private static final long SPIN_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final long IDLE_MILLIS = 600;
    /**
     * The kernel's ticks truncate utime and stime apart: each read is under by less than two ticks, a difference off by
     * less than two either way; the rest for the JVM's other threads running between the paired reads on a loaded
     * host. A wall clock or a thread's clock is off by 400 ms or more.
     */
    private static final long TICKS_TOLERANCE_NANOS = 100_000_000;

    /** Where the nanosecond clock must be reachable: Linux, and a JDK whose FFM API is final (22 on). */
    private static void requireNanosecondClockPlatform() {
        Prerequisites.require(System.getProperty("os.name").equals("Linux") && Runtime.version().feature() >= 22,
                "Linux and a JDK >= 22, whose FFM API reaches clock_gettime (run the tests on such a JDK: JAVA_HOME)");
    }

    @Test
    void onLinuxWithFfmTheRecordSaysTheKernelsNanosecondClock() {
        requireNanosecondClockPlatform();
        assertNull(Libc.unavailable(), "FFM is there, yet Libc could not call clock_gettime");
        assertEquals("clock_gettime(CLOCK_PROCESS_CPUTIME_ID) through FFM, in ns", JvmCounters.describeCpuClock());
    }

    /**
     * Against the kernel's own account of this process (/proc/self/stat's utime + stime): two threads spin 200 ms of
     * CPU each while this one waits, then the process idles 600 ms. A thread's clock sees about nothing of that, a wall
     * clock (CLOCK_MONOTONIC, System.nanoTime) at least 800 ms; the process's CPU clock 400 ms and whatever else the
     * JVM ran, as the kernel's ticks count it within 100 ms either way.
     */
    @Test
    void theClockCountsEveryThreadsCpuAndNoIdleTimeAsTheKernelDoes() throws Exception {
        requireNanosecondClockPlatform();
        long tickNanos = TimeUnit.SECONDS.toNanos(1) / clockTicksPerSecond();
        long ticksBefore = statTicks();
        long before = JvmCounters.processCpuNanos();
        Thread a = Thread.ofPlatform().name("spin-a").start(() -> spin(SPIN_NANOS));
        Thread b = Thread.ofPlatform().name("spin-b").start(() -> spin(SPIN_NANOS));
        a.join();
        b.join();
        Thread.sleep(IDLE_MILLIS);
        long clock = JvmCounters.processCpuNanos() - before;
        long kernel = (statTicks() - ticksBefore) * tickNanos;
        assertTrue(clock >= 2 * SPIN_NANOS, "the clock saw " + clock / 1_000_000 + " ms of two threads' 400 ms");
        assertEquals(kernel, clock, TICKS_TOLERANCE_NANOS, "the clock " + clock / 1_000_000 + " ms, the kernel's ticks "
                + kernel / 1_000_000 + " ms");
    }

    /** Ten windows of about 3 ms of spinning each: with ticks every one would be a multiple of 10 ms (most of them 0). */
    @Test
    void aWindowsCpuTimeIsNotCountedInTicks() {
        requireNanosecondClockPlatform();
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

    /** This process's utime + stime from /proc/self/stat (fields 14 and 15), in clock ticks. */
    private static long statTicks() throws IOException {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" "); // f[0] is field 3, the state
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** The kernel's USER_HZ, as getconf reads it (100 on common kernels). */
    private static long clockTicksPerSecond() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).strip();
        assertEquals(0, p.waitFor(), "getconf CLK_TCK: " + out);
        return Long.parseLong(out);
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

    @Test
    void aFailedNsReadIsMinusOneNotATickReading() {
        // The tick clock reads a positive value in any JVM that has run code: a fallback would return it.
        assertEquals(-1, JvmCounters.processCpuNanos(JvmCounters.CpuClock.NS, () -> -1));
        assertEquals(-1, JvmCounters.delta(1_000, JvmCounters.processCpuNanos(JvmCounters.CpuClock.NS, () -> -1)));
        assertEquals(42, JvmCounters.processCpuNanos(JvmCounters.CpuClock.NS, () -> 42));
    }
}
