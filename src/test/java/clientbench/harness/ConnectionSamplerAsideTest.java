package clientbench.harness;

import clientbench.harness.record.IterationSnapshot;
import clientbench.testkit.Affinity;
import clientbench.testkit.ChildJvm;
import clientbench.testkit.Iterations;
import clientbench.testkit.Prerequisites;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Against a target of its own a pinned trial samples the kernel's connection table on a thread of the stub's CPUs,
 * not the client's, and leaves that thread's CPU time out of the client's: as the kernel tells it ({@code taskset -p}),
 * in a JVM of its own, since pinning moves the whole JVM.
 */
@Timeout(120)
class ConnectionSamplerAsideTest {

    @Test
    void theSamplerRunsOnTheStubsCpusAndItsTimeIsNotTheClients() throws Exception {
        Prerequisites.require(Files.isDirectory(Path.of("/proc/self/task")), "Linux's /proc/self/task");
        Prerequisites.require(StubProcess.taskset() != null, "taskset (util-linux) on PATH");
        Prerequisites.require(CpuLayout.allowedCpus().size() >= 2, "two CPUs: with one nothing is pinned");
        try (ChildJvm.Running probe = ChildJvm.main(Probe.class).start()) {
            String samplerTid = field(probe.await(l -> l.startsWith("sampler "), 90));
            assertTrue(samplerTid.matches("\\d+"), "the sampler's thread was found by its name: " + samplerTid);
            long sampler = Long.parseLong(samplerTid);
            long main = Long.parseLong(field(probe.await(l -> l.startsWith("main "), 10)));
            List<Integer> stubCpus = CpuLayout.parseList(field(probe.await(l -> l.startsWith("stubCpus "), 10)));
            String windows = field(probe.await(l -> l.startsWith("windows "), 10));
            assertEquals(stubCpus, Affinity.of(sampler), "the sampler runs on the stub's CPUs alone");
            assertNotEquals(stubCpus, Affinity.of(main), "the pacer's thread stays with the client");
            for (String w : windows.split(" ")) {
                String[] f = w.split("/"); // samplerCpuNanos/cpuNanosInWindow/compilerCpuNanos/sent/cpuMicrosPerRequest
                long samplerNanos = Long.parseLong(f[0]);
                assertTrue(samplerNanos >= 0, "the sampler's CPU time was read: " + w);
                double expected = (Long.parseLong(f[1]) - Math.max(0, Long.parseLong(f[2])) - samplerNanos) / 1e3
                        / Long.parseLong(f[3]);
                assertEquals(expected, Double.parseDouble(f[4]), 1e-6, "CPU per request leaves the sampler out: " + w);
            }
            probe.write("done");
            assertEquals(0, probe.exitValue(30), probe.output());
        }
    }

    /** What follows a line's first word. */
    private static String field(String line) {
        return line.substring(line.indexOf(' ') + 1).trim();
    }

    /**
     * The child: a pinned trial against a stub it reaches as a target; two windows; then prints the sampler's kernel
     * thread id (found by its name), its own main thread's, the stub CPUs of the layout and each window's CPU figures,
     * each line named by its first word, and keeps the trial open until the parent says it looked.
     */
    public static final class Probe {
        public static void main(String[] args) throws Exception {
            try (StubProcess target = StubProcess.start(false, (List<Integer>) null)) {
                TrialSpec spec = TrialSpec.parse("jdk", target.uri().toString(), "http1", "8", "0", "5", "0",
                        LoadSpec.open(300, 16, LoadSpec.Backpressure.PARK, Duration.ofSeconds(6)), null);
                StringBuilder windows = new StringBuilder();
                String stubCpus = CpuLayout.format(CpuLayout.plan(CpuLayout.allowedCpus(), true).stubCpus()); // before pinning
                try (Trial trial = Trial.start(spec, true)) {
                    for (int i = 0; i < 2; i++) {
                        IterationSnapshot s = Iterations.run(trial, 600, -30, false);
                        windows.append(s.probes().samplerCpuNanos()).append('/').append(s.cpuNanosInWindow())
                                .append('/').append(s.probes().compilerCpuNanos()).append('/').append(s.sent())
                                .append('/').append(s.cpuMicrosPerRequest()).append(' ');
                    }
                    System.out.println("sampler " + threadNamed("clientbench-con")); // the kernel keeps 15 characters
                    System.out.println("main " + clientbench.harness.probe.KernelThreadId.current());
                    System.out.println("stubCpus " + stubCpus);
                    System.out.println("windows " + windows);
                    System.out.flush();
                    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine(); // the parent looked
                }
            }
        }

        private static String threadNamed(String comm) throws Exception {
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
                for (Path task : tasks) {
                    if (Files.readString(task.resolve("comm")).trim().equals(comm)) {
                        return task.getFileName().toString();
                    }
                }
            }
            return "none";
        }
    }
}
