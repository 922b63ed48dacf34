package clientbench.harness;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Time this JVM's JIT compilers spent so far, in ns: their threads' CPU time from /proc where Linux tells it, else
 * {@code CompilationMXBean}'s elapsed time, which on a busy core includes waiting and overstates warm-up. An ended
 * compiler thread takes its CPU time along: rare, and only ever less.
 */
public final class JitTime {

    /** Linux's USER_HZ, the unit of utime and stime in /proc: 100 on every architecture the JDK runs on. */
    private static final long NANOS_PER_TICK = 10_000_000L;
    private static final Path TASKS = Path.of("/proc/self/task");

    private JitTime() {
    }

    /** How the time is read here: "cpu" (compiler threads' CPU time), "elapsed", or "none". */
    public static String source() {
        return cpuNanos() >= 0 ? "cpu" : elapsedNanos() >= 0 ? "elapsed" : "none";
    }

    /** The compilers' time so far, by {@link #source()}; -1 where neither can be read. */
    public static long nanos() {
        long cpu = cpuNanos();
        return cpu >= 0 ? cpu : elapsedNanos();
    }

    static long cpuNanos() {
        long ticks = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
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
