package clientbench.harness;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Time this JVM's JIT compilers spent so far, in ns, from one source chosen at class load: their threads' CPU time
 * from /proc where Linux tells it, else {@code CompilationMXBean}'s elapsed time, which on a busy core includes
 * waiting and overstates warm-up. A read that fails is -1, never the other source's: a window's share subtracts two
 * reads of one clock. An ended compiler thread takes its CPU time along: rare, and only ever less.
 */
public final class JitTime {

    /** Linux's USER_HZ, the unit of utime and stime in /proc: 100 on every architecture the JDK runs on. */
    private static final long NANOS_PER_TICK = 10_000_000L;
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
        long ticks = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(dir)) {
            for (Path task : tasks) {
                ticks += compilerTicks(task.resolve("stat"));
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return ticks * NANOS_PER_TICK;
    }

    /** The kernel ids of this JVM's JIT compiler threads now (empty where /proc does not tell). */
    static java.util.List<Long> compilerThreadIds() {
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

    /** utime + stime of a compiler thread's stat line (its name in brackets holds no bracket), 0 for another thread. */
    static long compilerTicks(Path stat) {
        String line;
        try {
            line = Files.readString(stat);
        } catch (IOException e) {
            return 0; // the thread ended between the listing and the read
        }
        int open = line.indexOf('(');
        int close = line.lastIndexOf(')');
        String name = line.substring(open + 1, close);
        if (!name.contains("CompilerThre")) {
            return 0;
        }
        String[] f = line.substring(close + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]); // fields 14 and 15 of the line: utime, stime
    }

    private static long elapsedNanos() {
        var jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() * 1_000_000L : -1;
    }
}
