package clientbench.harness.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A thread's id as the kernel knows it (what taskset -p takes), read from /proc. A class of its own: reading it loads
 * nothing else (JvmCounters, say, links libc as it loads, and a child JVM without the native-access flag warns).
 */
public final class KernelThreadId {
    /** The link to the calling thread's own /proc entry. */
    public static final Path THREAD_SELF = Path.of("/proc/thread-self");

    private KernelThreadId() {
    }

    /** The calling thread's; -1 where unknown. */
    public static long current() {
        return of(THREAD_SELF);
    }

    /** The calling thread's, from the link {@code threadSelf} ("/proc/PID/task/TID"); -1 where unknown. */
    public static long of(Path threadSelf) {
        try {
            return Long.parseLong(Files.readSymbolicLink(threadSelf).getFileName().toString());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
