package clientbench.harness.probe;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Time this JVM's JIT compilers spent so far, in ns, from one source chosen at class load: their threads' CPU time
 * from /proc (schedstat's run time, in ns) where Linux tells it, else {@code CompilationMXBean}'s elapsed time, which
 * on a busy core includes waiting and overstates warm-up. A read that fails is -1, never the other source's: a
 * window's share subtracts two reads of one clock. An ended compiler thread takes its CPU time along: rare, and only ever less.
 */
public final class JitTime {

    private static final Path TASKS = Path.of("/proc/self/task");
    private static final String SOURCE = cpuNanos() >= 0 ? "cpu" : elapsedNanos() >= 0 ? "elapsed" : "none";

    private JitTime() {
    }

    /** How the time is read in this JVM: "cpu" (compiler threads' CPU time), "elapsed", or "none". */
    public static String source() {
        return SOURCE;
    }

    /** The compilers' time so far from {@link #source()} alone; -1 where this read failed or there is no source. */
    public static long nanos() {
        return nanos(SOURCE, TASKS);
    }

    /** As {@link #nanos()} from {@code source}, the threads' stat files under {@code tasks}. */
    static long nanos(String source, Path tasks) {
        return switch (source) {
            case "cpu" -> cpuNanos(tasks);
            case "elapsed" -> elapsedNanos();
            default -> -1;
        };
    }

    /** A window's {@code jitSource}: {@link #source()} where both its reads worked, else "failed" ("none": no source). */
    public static String windowSource(long atStart, long atEnd) {
        return SOURCE.equals("none") ? SOURCE : atStart >= 0 && atEnd >= 0 ? SOURCE : "failed";
    }

    static long cpuNanos() {
        return cpuNanos(TASKS);
    }

    private static long cpuNanos(Path dir) {
        long nanos = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(dir)) {
            for (Path task : tasks) {
                nanos += compilerNanos(task);
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return nanos;
    }

    /** The kernel ids of this JVM's JIT compiler threads now (empty where /proc does not tell). */
    public static java.util.List<Long> compilerThreadIds() {
        java.util.List<Long> ids = new java.util.ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                try {
                    if (Files.readString(task.resolve("comm")).contains("CompilerThre")) {
                        ids.add(Long.parseLong(task.getFileName().toString()));
                    }
                } catch (IOException e) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException | RuntimeException e) {
            return java.util.List.of();
        }
        return ids;
    }

    /**
     * The CPU time of thread {@code task} (a /proc/self/task entry) in ns when its stat names a JIT compiler thread
     * (the kernel's nanosecond run time, schedstat's first field; stat's ticks are 10 ms, as long as a compilation),
     * else 0; a thread that ended adds nothing.
     */
    static long compilerNanos(Path task) {
        String stat;
        String schedstat;
        try {
            stat = Files.readString(task.resolve("stat"));
            if (!stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).contains("CompilerThre")) {
                return 0;
            }
            schedstat = Files.readString(task.resolve("schedstat"));
        } catch (IOException e) {
            return 0; // the thread ended between the listing and the read
        }
        return Long.parseLong(schedstat.strip().split(" ")[0]);
    }

    private static long elapsedNanos() {
        var jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() * 1_000_000L : -1;
    }
}
