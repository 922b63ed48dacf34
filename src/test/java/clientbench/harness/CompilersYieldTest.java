package clientbench.harness;

import clientbench.testkit.Prerequisites;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CompilersYieldTest {

    @Test
    void thePolicyIsReadFromField41AfterABracketedName(@TempDir Path dir) throws Exception {
        StringBuilder line = new StringBuilder("4242 (pool (1) x) S");
        for (int field = 4; field <= 52; field++) {
            line.append(' ').append(field == 41 ? CompilersYield.SCHED_IDLE : field == 40 ? 7 : 0);
        }
        assertEquals(CompilersYield.SCHED_IDLE, CompilersYield.policy(Files.writeString(dir.resolve("stat"), line)));
        assertEquals(-1, CompilersYield.policy(dir.resolve("gone")), "a thread that ended has no policy");
    }

    /**
     * In a JVM of its own (the policy is never undone): after {@code now()} the kernel, asked by {@code chrt -p}, has
     * every compiler thread the probe named at SCHED_IDLE, and the probe's own reading says so too.
     */
    @Test
    void everyCompilerThreadRunsAtSchedIdleAsTheKernelTellsIt() throws Exception {
        Prerequisites.require(Files.isDirectory(Path.of("/proc/self/task")), "Linux's /proc/self/task");
        Prerequisites.require(onPath("chrt"), "chrt (util-linux) on PATH");
        Process probe = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), Probe.class.getName()).redirectErrorStream(true).start();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(probe.getInputStream(), StandardCharsets.UTF_8))) {
            String tids = in.readLine();
            String described = in.readLine();
            assertTrue(tids != null && !tids.isBlank(), "the probe named no compiler thread: " + tids + " / " + described);
            List<String> ids = List.of(tids.trim().split(" "));
            for (String tid : ids) {
                String chrt = run("chrt", "-p", tid);
                assertTrue(chrt.contains("SCHED_IDLE"), "compiler thread " + tid + ": " + chrt);
            }
            assertTrue(described != null && described.matches("(\\d+) of \\1 compiler threads SCHED_IDLE"), described);
        } finally {
            probe.getOutputStream().close(); // the probe ends when its input does
            assertTrue(probe.waitFor(30, TimeUnit.SECONDS), "the probe did not end");
        }
    }

    @Test
    void aThreadNotAskedRunsAsItDid() throws Exception {
        Prerequisites.require(onPath("chrt"), "chrt (util-linux) on PATH");
        assertFalse(run("chrt", "-p", Long.toString(ProcessHandle.current().pid())).contains("SCHED_IDLE"),
                "the test JVM's main thread is untouched: only the probe's compilers are asked");
    }

    /** The child: asks, prints its compiler threads' ids and its own reading, then waits for its input to end. */
    public static final class Probe {
        public static void main(String[] args) throws Exception {
            CompilersYield.now();
            List<String> ids = new ArrayList<>();
            JitTime.compilerThreadIds().forEach(t -> ids.add(Long.toString(t)));
            System.out.println(String.join(" ", ids));
            System.out.println(CompilersYield.describe()); // a thread the JIT adds meanwhile inherits the policy
            System.out.flush();
            System.in.transferTo(java.io.OutputStream.nullOutputStream());
        }
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    private static String run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(10, TimeUnit.SECONDS);
        return out;
    }
}
