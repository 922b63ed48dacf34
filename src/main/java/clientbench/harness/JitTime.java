package clientbench.harness;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The time this JVM's JIT compilers have spent so far, in nanoseconds: the CPU time of its compiler threads
 * ({@code C1/C2 CompilerThread}, from {@code /proc/self/task/<tid>/stat}) where Linux tells it, else the compilers'
 * elapsed time ({@code CompilationMXBean}), which on a busy or pinned core counts the time they waited for a CPU too
 * and overstates the warm-up. A compiler thread that ended takes its CPU time with it: rare, and only ever less.
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
