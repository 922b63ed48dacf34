package clientbench.harness;

import clientbench.harness.probe.JitTime;
import clientbench.testkit.Affinity;
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
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CompilersAsideTest {

    @Test
    void theAllowedCpusAreReadWithTheirRanges(@TempDir Path dir) throws Exception {
        Path status = Files.writeString(dir.resolve("status"), "Name:\tC2 CompilerThre\nCpus_allowed:\t2f\n"
                + "Cpus_allowed_list:\t0-3,5\nMems_allowed_list:\t0\n");
        assertEquals(Set.of(0, 1, 2, 3, 5), CompilersAside.allowedCpus(status));
        assertEquals(Set.of(), CompilersAside.allowedCpus(dir.resolve("gone")), "a thread that ended has no CPUs");
    }

    /**
     * In a JVM of its own: after {@code to(last CPU)} the kernel, asked by {@code taskset -p}, has every compiler
     * thread the probe named on that CPU alone, the probe's main thread where it was, and the probe's reading agrees.
     */
    @Test
    void everyCompilerThreadMovesAsTheKernelTellsItAndNoOtherThread() throws Exception {
        Prerequisites.require(Files.isDirectory(Path.of("/proc/self/task")), "Linux's /proc/self/task");
        Prerequisites.require(StubProcess.taskset() != null, "taskset (util-linux) on PATH");
        List<Integer> allowed = CpuLayout.allowedCpus();
        Prerequisites.require(allowed.size() >= 2, "two CPUs: moving to the only one changes nothing (run the tests where the JVM may use two CPUs or more)");
        String last = Integer.toString(allowed.get(allowed.size() - 1));
        Process probe = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), Probe.class.getName(), last).redirectErrorStream(true).start();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(probe.getInputStream(), StandardCharsets.UTF_8))) {
            String main = in.readLine();
            String tids = in.readLine();
            String described = in.readLine();
            assertTrue(tids != null && !tids.isBlank(), "the probe named no compiler thread: " + tids + " / " + described);
            for (String tid : tids.trim().split(" ")) {
                assertEquals(List.of(Integer.parseInt(last)), Affinity.of(Long.parseLong(tid)), "compiler thread " + tid);
            }
            assertNotEquals(List.of(Integer.parseInt(last)), Affinity.of(Long.parseLong(main)),
                    "the probe's main thread was not asked: it keeps every CPU");
            assertTrue(described != null && described.matches("(\\d+) of \\1 compiler threads on CPUs " + last), described);
        } finally {
            probe.getOutputStream().close(); // the probe ends when its input does
            assertTrue(probe.waitFor(30, TimeUnit.SECONDS), "the probe did not end");
        }
    }

    /** The child: moves its compilers to the CPU given, prints its main thread's id, its compilers' and its reading. */
    public static final class Probe {
        public static void main(String[] args) throws Exception {
            List<Integer> to = List.of(Integer.parseInt(args[0]));
            String described = CompilersAside.to(to);
            List<String> ids = new ArrayList<>();
            JitTime.compilerThreadIds().forEach(t -> ids.add(Long.toString(t)));
            System.out.println(clientbench.harness.probe.KernelThreadId.current());
            System.out.println(String.join(" ", ids));
            System.out.println(described);
            System.out.flush();
            System.in.transferTo(java.io.OutputStream.nullOutputStream());
        }
    }
}
