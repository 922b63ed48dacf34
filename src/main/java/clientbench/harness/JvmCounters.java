package clientbench.harness;

import java.lang.management.ManagementFactory;

/**
 * This JVM's own counters, read at a window's start and end: process CPU time and bytes allocated by
 * every thread (the counter JMH's {@code -prof gc} reads). Each read is a few microseconds.
 */
final class JvmCounters {

    private JvmCounters() {
    }

    /** CPU time of every thread of this process since it started, or -1 where the JVM cannot tell. */
    static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
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
