package clientbench.harness;

import java.lang.management.ManagementFactory;

/**
 * This JVM's own counters, read at a window's start and end: process CPU time and bytes allocated by
 * every thread (the counter JMH's {@code -prof gc} reads). Each read is a few microseconds.
 */
final class JvmCounters {

    private JvmCounters() {
    }

    /** How {@link #processCpuNanos} reads the clock, for each trial's settings. */
    static final String CPU_CLOCK = Libc.unavailable() == null
            ? "clock_gettime(CLOCK_PROCESS_CPUTIME_ID) through FFM, in ns"
            : "OperatingSystemMXBean.getProcessCpuTime, in 10 ms ticks on Linux: " + Libc.unavailable();

    /**
     * CPU time of every thread of this process since it started (ended threads included), or -1 where unknown: from
     * the kernel's nanosecond clock, else the JVM's, which Linux counts in 10 ms ticks (+-1.25 us per request in 2 s
     * at 4,000 req/s).
     */
    static long processCpuNanos() {
        long nanos = Libc.processCpuNanos();
        if (nanos >= 0) {
            return nanos;
        }
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
    }

    /** CPU time of the thread {@code threadId} of this JVM in ns (the kernel's clock), or -1 where unknown. */
    static long threadCpuNanos(long threadId) {
        var threads = ManagementFactory.getThreadMXBean();
        return threads.isThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled() ? threads.getThreadCpuTime(threadId) : -1;
    }

    /** Heap bytes allocated by every thread so far (threads that ended included), or -1. */
    static long allocatedBytes() {
        try {
            return ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
                    && t.isThreadAllocatedMemoryEnabled() ? t.getTotalThreadAllocatedBytes() : -1;
        } catch (UnsupportedOperationException e) {
            return -1;
        }
    }

    /**
     * Milliseconds this JVM's collectors have paused its threads so far, or -1. Collectors that count concurrent
     * work under their own bean (G1's "G1 Concurrent GC", ZGC's and Shenandoah's "Cycles") are left out: their time
     * ran beside the application, not in place of it.
     */
    static long gcPauseMillis() {
        long sum = 0;
        boolean any = false;
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            String name = gc.getName();
            long t = gc.getCollectionTime();
            if (name.contains("Concurrent") || name.contains("Cycles") || t < 0) {
                continue;
            }
            sum += t;
            any = true;
        }
        return any ? sum : -1;
    }

    /** {@code end - start}, or -1 when either is unknown. */
    static long delta(long start, long end) {
        return start < 0 || end < 0 ? -1 : end - start;
    }
}
