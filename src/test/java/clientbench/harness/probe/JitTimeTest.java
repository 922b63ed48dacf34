package clientbench.harness.probe;

import clientbench.testkit.Prerequisites;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JitTimeTest {

    @Test
    void aCompilerThreadsRunTimeIsItsSchedstatNanosAndAnyOtherThreadNone(@TempDir Path dir) throws Exception {
        Path c2 = task(dir, "4242", "4242 (C2 CompilerThre) S 1 2 3 0 -1 4194368 0 0 0 0 731 42 0 0 20 0 1", "7730000123 5 9");
        Path app = task(dir, "4243", "4243 (pool (1) x) R 1 2 3 0 -1 4194368 0 0 0 0 900 100 0 0 20 0 1", "9000000000 1 1");
        assertEquals(7_730_000_123L, JitTime.compilerNanos(c2), "schedstat's run time, not stat's ticks");
        assertEquals(0, JitTime.compilerNanos(app), "a name with brackets and spaces is read whole and is no compiler");
        assertEquals(0, JitTime.compilerNanos(dir.resolve("gone")), "a thread that ended adds nothing");
    }

    private static Path task(Path tasks, String id, String stat, String schedstat) throws Exception {
        Path t = Files.createDirectories(tasks.resolve(id));
        Files.writeString(t.resolve("stat"), stat);
        Files.writeString(t.resolve("schedstat"), schedstat);
        return t;
    }

    /**
     * A stat or schedstat line that cannot be parsed fails the read (-1), never replaced by CompilationMXBean's elapsed time, which
     * is above zero in this JVM by now: a window's share then subtracts two reads of one clock, or is not measured.
     */
    @Test
    void aLineThatCannotBeParsedFailsTheReadRatherThanFallingBack(@TempDir Path tasks) throws Exception {
        task(tasks, "4242", "4242 (C2 CompilerThre) S 1 2 3 0 -1 4194368 0 0 0 0 731 42 0 0 20 0 1", "7730000000 5 9");
        task(tasks, "4244", "4244 (C1 CompilerThre) S 1 2 3 0 -1 4194368 0 0 0 0 1 2 0 0 20 0 1", "30000001 5 9");
        assertEquals(7_760_000_001L, JitTime.nanos("cpu", tasks), "both compilers' run time");
        Files.writeString(tasks.resolve("4242/schedstat"), "77300x"); // cut short
        assertEquals(-1, JitTime.nanos("cpu", tasks));
        Files.writeString(tasks.resolve("4242/schedstat"), "7730000000 5 9");
        Files.writeString(tasks.resolve("4242/stat"), "4242 C2 CompilerThre S 1 2"); // no name in brackets
        assertEquals(-1, JitTime.nanos("cpu", tasks));
        assertEquals("failed", JitTime.windowSource(-1, 5));
        assertEquals("failed", JitTime.windowSource(5, -1));
        assertEquals(JitTime.source(), JitTime.windowSource(5, 7));
    }

    /** Counted outside the harness: this JVM compiles as it runs the tests, and its compiler threads' time only grows. */
    @Test
    void onLinuxTheCompilersCpuTimeIsReadAndNeverFalls() {
        Prerequisites.require(Files.isDirectory(Path.of("/proc/self/task")), "Linux's /proc/self/task");
        assertEquals("cpu", JitTime.source());
        long before = JitTime.nanos();
        long sum = 0;
        for (int i = 0; i < 2_000_000; i++) {
            sum += Integer.toString(i).hashCode(); // something to compile
        }
        assertTrue(sum != 1, "kept");
        assertTrue(JitTime.nanos() >= before && before >= 0, before + " then " + JitTime.nanos());
    }

    /**
     * Checked against the JVM's own account, CompilationMXBean's elapsed compile time: the compilers' CPU time is more
     * than nothing once it says they compiled, and no more than that wall time (a slack of 10% and 100 ms for reads at its edges).
     */
    @Test
    void theCompilersCpuTimeIsAboveZeroAndWithinTheirElapsedCompileTime() {
        Prerequisites.require(Files.isDirectory(Path.of("/proc/self/task")), "Linux's /proc/self/task");
        var jit = ManagementFactory.getCompilationMXBean();
        Prerequisites.require(jit != null && jit.isCompilationTimeMonitoringSupported(), "CompilationMXBean's time");
        long sum = 0;
        for (int i = 0; i < 2_000_000; i++) {
            sum += Long.toString(i * 31L).hashCode(); // something more to compile
        }
        assertTrue(sum != 1, "kept");
        long cpu = JitTime.nanos();
        long elapsedMillis = jit.getTotalCompilationTime();
        assertTrue(elapsedMillis >= 100, "this JVM compiled for " + elapsedMillis + " ms by now");
        assertTrue(cpu > 0, "compilers' CPU time " + cpu + " ns after " + elapsedMillis + " ms of compiling");
        assertTrue(cpu <= (elapsedMillis * 1.1 + 100) * 1_000_000, cpu + " ns of CPU in " + elapsedMillis + " ms of compiling");
    }
}
