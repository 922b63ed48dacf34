package clientbench.harness.probe;

import java.lang.management.ManagementFactory;

/**
 * This JVM's own counters, read at a window's start and end: process CPU time and bytes allocated by
 * every thread (the counter JMH's {@code -prof gc} reads). Each read is a few microseconds.
 */
public final class JvmCounters {

    private JvmCounters() {
    }

    /** Where every read of {@link #processCpuNanos} in this JVM comes from; chosen once, at class load. */
    enum CpuClock {
        NS("ns", "clock_gettime(CLOCK_PROCESS_CPUTIME_ID) through FFM, in ns"),
        TICKS("ticks", "OperatingSystemMXBean.getProcessCpuTime, in 10 ms ticks on Linux"),
        NONE("none", "not read");

        /** A window's {@code cpuClock} in its record; "failed" where a read of this source failed in it. */
        final String key;
        final String describe;

        CpuClock(String key, String describe) {
            this.key = key;
            this.describe = describe;
        }
    }

    static final CpuClock CPU_CLOCK = Libc.unavailable() == null ? CpuClock.NS
            : ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean
            ? CpuClock.TICKS : CpuClock.NONE;

    /** For each trial's settings: the JVM's one source, and why it is not the ns clock where it is not. */
    public static String describeCpuClock() {
        return CPU_CLOCK == CpuClock.NS ? CPU_CLOCK.describe : CPU_CLOCK.describe + ": " + Libc.unavailable();
    }

    /**
     * How a window's CPU time was taken: {@link #CPU_CLOCK}'s key when both reads worked, else "failed". One source
     * only: a read that fails is never replaced by another clock's, so a window never mixes two.
     */
    public static String windowClock(long cpuNanosInWindow) {
        return CPU_CLOCK == CpuClock.NONE ? CPU_CLOCK.key : cpuNanosInWindow >= 0 ? CPU_CLOCK.key : "failed";
    }

    /**
     * CPU time of every thread of this process since it started (ended threads included), or -1 where this read
     * failed: from {@link #CPU_CLOCK} alone. The JVM's bean counts in 10 ms ticks on Linux (+-1.25 us per request in
     * 2 s at 4,000 req/s), so it is read only where the ns clock is missing from the start.
     */
    public static long processCpuNanos() {
        return processCpuNanos(CPU_CLOCK, Libc::processCpuNanos);
    }

    /** As {@link #processCpuNanos()} from {@code clock}, the ns clock being {@code nsClock}; -1 where it failed. */
    static long processCpuNanos(CpuClock clock, java.util.function.LongSupplier nsClock) {
        return switch (clock) {
            case NS -> nsClock.getAsLong();
            case TICKS -> ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                    .getProcessCpuTime();
            case NONE -> -1;
        };
    }

    /** CPU time of the thread {@code threadId} of this JVM in ns (the kernel's clock), or -1 where unknown. */
    public static long threadCpuNanos(long threadId) {
        var threads = ManagementFactory.getThreadMXBean();
        return threads.isThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled() ? threads.getThreadCpuTime(threadId) : -1;
    }

    /** Heap bytes allocated by every thread so far (threads that ended included), or -1. */
    public static long allocatedBytes() {
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
    public static long gcPauseMillis() {
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
    public static long delta(long start, long end) {
        return start < 0 || end < 0 ? -1 : end - start;
    }
}
