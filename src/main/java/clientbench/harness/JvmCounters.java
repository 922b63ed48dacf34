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

    /** {@code end - start}, or -1 when either is unknown. */
    static long delta(long start, long end) {
        return start < 0 || end < 0 ? -1 : end - start;
    }
}
