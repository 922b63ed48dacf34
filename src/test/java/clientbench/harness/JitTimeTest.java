package clientbench.harness;

import clientbench.testkit.Prerequisites;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
}
