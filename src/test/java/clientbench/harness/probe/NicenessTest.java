package clientbench.harness.probe;

import clientbench.testkit.Prerequisites;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The nice value a run records is the kernel's, read from the stat file: a child started under nice 7 reads 7. */
class NicenessTest {

    @Test
    void fieldNineteenCountsFromTheLastParenthesis() {
        // proc(5): pid (comm) state ppid ... priority nice; a command name may hold spaces and parentheses.
        assertEquals(-10, Niceness.parse("42 (a (b) c) S 1 42 42 0 -1 4194560 9 0 0 0 3 1 0 0 10 -10 1 0 77 1 1"));
    }

    @Test
    void aChildStartedUnderNiceReadsItsValue() throws Exception {
        Prerequisites.require(Files.isReadable(Path.of("/proc/self/stat")), "no /proc (not Linux)");
        int own = Niceness.self();
        int want = Math.min(19, own + 7); // lowering priority needs no privilege
        Process p = new ProcessBuilder("nice", "-n", Integer.toString(want - own), "sleep", "5").start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            int read = Niceness.of(p.pid());
            while (read != want && System.nanoTime() < deadline) { // nice sets it, then execs sleep: same pid
                Thread.sleep(10);
                read = Niceness.of(p.pid());
            }
            assertEquals(want, read);
        } finally {
            p.destroy();
            p.waitFor();
        }
        assertEquals(Niceness.UNKNOWN, Niceness.of(p.pid()));
    }
}
