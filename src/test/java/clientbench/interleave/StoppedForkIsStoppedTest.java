package clientbench.interleave;

import clientbench.testkit.Prerequisites;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A fork waiting for its turn is stopped as the kernel sees it (state T), and runs again once continued. */
@Timeout(30)
class StoppedForkIsStoppedTest {

    @Test
    void stopThenContinueAsTheKernelReportsIt() throws Exception {
        Prerequisites.require(Files.isReadable(Path.of("/proc/self/stat")), "needs /proc/<pid>/stat");
        // A child that burns CPU for at most 20 s: stopped, its state is T; continued, it runs (R) again.
        Process child = new ProcessBuilder("bash", "-c", "while [ $SECONDS -lt 20 ]; do :; done").start();
        try {
            long pid = child.pid();
            assertTrue(Signals.send("STOP", List.of(pid)));
            assertEquals('T', waitForState(pid, 'T'));
            assertTrue(Signals.send("CONT", List.of(pid)));
            assertEquals('R', waitForState(pid, 'R'));
            assertTrue(!Signals.send("CONT", List.of()), "no pid, nothing signalled");
        } finally {
            child.destroyForcibly();
            child.waitFor(5, TimeUnit.SECONDS);
        }
    }

    /** The third field of /proc/PID/stat once it is {@code want}, or the last seen after 10 s. */
    private static char waitForState(long pid, char want) throws Exception {
        char state = '?';
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            state = stat.charAt(stat.lastIndexOf(')') + 2);
            if (state == want) {
                break;
            }
            Thread.sleep(10);
        }
        return state;
    }
}
