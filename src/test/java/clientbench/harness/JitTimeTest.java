package clientbench.harness;

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
    void aCompilerThreadsStatGivesItsUserAndSystemTicksAndAnyOtherThreadNone(@TempDir Path dir) throws Exception {
        Path c2 = Files.writeString(dir.resolve("c2"), "4242 (C2 CompilerThre) S 1 2 3 0 -1 4194368 0 0 0 0 731 42 0 0 20 0 1");
        Path app = Files.writeString(dir.resolve("app"), "4243 (pool (1) x) R 1 2 3 0 -1 4194368 0 0 0 0 900 100 0 0 20 0 1");
        assertEquals(773, JitTime.compilerTicks(c2));
        assertEquals(0, JitTime.compilerTicks(app), "a name with brackets and spaces is read whole and is no compiler");
        assertEquals(0, JitTime.compilerTicks(dir.resolve("gone")), "a thread that ended adds nothing");
    }

    /**
     * A stat line that cannot be parsed fails the read (-1), never replaced by CompilationMXBean's elapsed time, which
     * is above zero in this JVM by now: a window's share then subtracts two reads of one clock, or is not measured.
     */
    @Test
    void aStatThatCannotBeParsedFailsTheReadRatherThanFallingBack(@TempDir Path tasks) throws Exception {
        Files.createDirectories(tasks.resolve("4242"));
        Files.writeString(tasks.resolve("4242/stat"), "4242 (C2 CompilerThre) S 1 2 3 0 -1 4194368 0 0 0 0 731 42 0 0 20 0 1");
        assertEquals(773 * 10_000_000L, JitTime.nanos("cpu", tasks), "(731 + 42) ticks of 10 ms");
        Files.writeString(tasks.resolve("4242/stat"), "4242 (C2 CompilerThre) S 1 2"); // cut short
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
     * than nothing once it says they compiled, and no more than that wall time (a slack of 10% and 100 ms for ticks).
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
