package clientbench.testkit;

import clientbench.harness.CpuLayout;
import clientbench.harness.StubProcess;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The CPUs a thread or process may run on, as the kernel tells them, not as the code that pinned it believes. */
public final class Affinity {

    private Affinity() {
    }

    /** {@code taskset -c -p ID}'s list ("pid N's current affinity list: 0-2,5" is [0, 1, 2, 5]). */
    public static List<Integer> of(long id) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(StubProcess.taskset(), "-c", "-p", Long.toString(id)).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        p.waitFor(10, TimeUnit.SECONDS);
        return CpuLayout.parseList(out.substring(out.lastIndexOf(':') + 1).trim());
    }
}
