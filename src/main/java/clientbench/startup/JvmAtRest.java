package clientbench.startup;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This JVM at rest: its live platform threads (daemons included; virtual threads are not the JVM's), the heap in use
 * after {@code System.gc()} (a full collection on G1 unless ExplicitGCInvokesConcurrent), and its {@code VmRSS} (-1 off
 * Linux).
 */
public record JvmAtRest(int threads, long heapUsedBytes, long rssBytes) {

    /** Measures now; threads first, as the collection may end a thread's wait but starts none. */
    static JvmAtRest now() {
        int threads = ManagementFactory.getThreadMXBean().getThreadCount();
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        return new JvmAtRest(threads, heap, residentBytes());
    }

    /** The resident set of this process, from the kernel; -1 when it does not say. */
    static long residentBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024; // the kernel writes "VmRSS: 123 kB"
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }
}
