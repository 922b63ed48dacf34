package clientbench.harness;

import clientbench.harness.record.IterationSnapshot;
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
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
        List<String> cmd = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(StubProcess.jdkFlags());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Probe.class.getName()));
        Process probe = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(probe.getInputStream(), StandardCharsets.UTF_8))) {
            String sampler = in.readLine();
            String main = in.readLine();
            String stubCpus = in.readLine();
            String windows = in.readLine();
            assertNotNull(windows, "the probe ended early: " + sampler + " / " + main + " / " + stubCpus);
            assertTrue(sampler.matches("\\d+"), "the sampler's thread was found: " + sampler);
            assertEquals(stubCpus, cpusOf(sampler), "the sampler runs on the stub's CPUs alone");
            assertNotEquals(stubCpus, cpusOf(main), "the pacer's thread stays with the client");
            for (String w : windows.trim().split(" ")) {
                String[] f = w.split("/"); // samplerCpuNanos/cpuNanosInWindow/compilerCpuNanos/sent/cpuMicrosPerRequest
                long samplerNanos = Long.parseLong(f[0]);
                assertTrue(samplerNanos >= 0, "the sampler's CPU time was read: " + w);
                double expected = (Long.parseLong(f[1]) - Math.max(0, Long.parseLong(f[2])) - samplerNanos) / 1e3
                        / Long.parseLong(f[3]);
                assertEquals(expected, Double.parseDouble(f[4]), 1e-6, "CPU per request leaves the sampler out: " + w);
            }
        } finally {
            probe.getOutputStream().close(); // the probe ends when its input does
            assertTrue(probe.waitFor(30, TimeUnit.SECONDS), "the probe did not end");
        }
    }

    /**
     * The child: a pinned trial against a stub it reaches as a target; two windows; then prints the sampler's kernel
     * thread id (found by its name), its own main thread's, the stub CPUs of the layout and each window's CPU figures,
     * and keeps the trial open until its input ends.
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
                    System.out.println(threadNamed("clientbench-con")); // the kernel keeps a name's first 15 characters
                    System.out.println(clientbench.harness.probe.KernelThreadId.current());
                    System.out.println(stubCpus);
                    System.out.println(windows);
                    System.out.flush();
                    System.in.transferTo(java.io.OutputStream.nullOutputStream()); // the sampler runs until the parent looked
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

    /** The thread's CPUs as the kernel tells them ({@code taskset -c -p}: "pid N's current affinity list: 1"). */
    private static String cpusOf(String tid) throws Exception {
        Process p = new ProcessBuilder(StubProcess.taskset(), "-c", "-p", tid).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        p.waitFor(10, TimeUnit.SECONDS);
        return out.substring(out.lastIndexOf(':') + 1).trim();
    }
}
