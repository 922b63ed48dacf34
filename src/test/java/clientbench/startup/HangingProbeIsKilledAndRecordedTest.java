package clientbench.startup;

import clientbench.jvm.Jdk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A probe JVM that never reports is killed at its bound, by its own PID, and its start is kept with the reason. */
@Timeout(120)
class HangingProbeIsKilledAndRecordedTest {

    @TempDir
    Path dir;

    /** A probe that never ends. */
    public static final class Hangs {
        public static void main(String[] args) throws InterruptedException {
            Thread.sleep(Long.MAX_VALUE);
        }
    }

    @Test
    void aHangingJvmIsKilledAndRecorded() throws Exception {
        StartupPlan plan = StartupPlan.of(List.of("jdk"), 1, Jdk.current(), dir)
                .withMainClass(Hangs.class.getName()).withBound(Duration.ofSeconds(1));
        StartupResult result = StartupRun.run(plan, dir, new PrintStream(OutputStream.nullOutputStream()));

        for (String client : List.of("jdk", "noop")) {
            List<StartRecord> starts = result.clients().get(client);
            assertEquals(1, starts.size(), client + ": kept, not dropped");
            StartRecord s = starts.get(0);
            assertFalse(s.ok());
            assertTrue(s.failure().startsWith("killed after 1 s"), s.failure());
            assertNull(s.exitCode(), "killed: no exit status of its own");
            assertFalse(ProcessHandle.of(s.pid()).map(ProcessHandle::isAlive).orElse(false), "pid " + s.pid() + " is gone");
        }
        assertTrue(Files.readString(dir.resolve(StartupRun.FILE)).contains("killed after 1 s"), "in startup.json");
    }
}
