package clientbench.harness.probe;

import clientbench.testkit.Prerequisites;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Other load is the machine's busy ticks that this process and its reaped children did not use, over all ticks; worked
 * by hand here, and against a child that spins while this JVM sleeps: its ticks are the run's own once it is reaped.
 */
class HostLoadTest {

    @TempDir
    Path dir;

    @Test
    void otherLoadIsBusyTicksLessOurOwnOverAllTicks() throws Exception {
        // 400 ticks pass (2 CPUs, 2 s); 250 busy, of which 150 were this process tree's: 100 / 400 other.
        HostLoad.Reading from = new HostLoad.Reading(new HostSteal.Ticks(0, 1_000, 10_000), 500, 0);
        HostLoad.Reading to = new HostLoad.Reading(new HostSteal.Ticks(20, 1_250, 10_400), 650, 2_000_000_000L);
        assertEquals(0.25, HostLoad.otherShare(from, to), 1e-12);
        assertEquals(2.0, HostLoad.between(from, to).get("seconds"));
        assertEquals(20.0 / 400, HostLoad.between(from, to).get("stealShare"));
        // More of our own than the machine's busy (ticks are sampled): none, never below 0.
        HostLoad.Reading ours = new HostLoad.Reading(new HostSteal.Ticks(20, 1_250, 10_400), 800, 2);
        assertEquals(0.0, HostLoad.otherShare(from, ours));
        assertNull(HostLoad.otherShare(from, new HostLoad.Reading(null, 650, 1)));
    }

    @Test
    void ownTicksAreUserSystemAndReapedChildrensFromTheStatFile() throws Exception {
        Path stat = dir.resolve("stat");
        Files.writeString(stat, "42 (java x) S 1 42 42 0 -1 4194560 9 0 0 0 300 100 20 7 20 0 1 0 77 1 1");
        assertEquals(300 + 100 + 20 + 7, HostLoad.ownTicks(stat));
        assertEquals(-1, HostLoad.ownTicks(dir.resolve("missing")));
    }

    @Test
    void aReapedChildsSpinIsOurOwnLoadNotOthers() throws Exception {
        Prerequisites.require(Files.isReadable(Path.of("/proc/self/stat")) && HostSteal.now() != null, "no /proc/stat");
        HostLoad.Reading from = HostLoad.now();
        // A child spins for about a second of CPU, then is reaped: its ticks enter our cutime.
        Process p = new ProcessBuilder("sh", "-c", "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done").start();
        p.waitFor();
        HostLoad.Reading to = HostLoad.now();
        long own = to.ownTicks() - from.ownTicks();
        assertTrue(own > 0, "the child's CPU ticks were not counted as ours: " + own);
        long busy = to.machine().busy() - from.machine().busy();
        // Ours is at most what the machine was busy with, give or take the sampling of /proc/stat (ticks a CPU).
        assertTrue(own <= busy + 5L * Runtime.getRuntime().availableProcessors(), "own " + own + " > busy " + busy);
    }
}
