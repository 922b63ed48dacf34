package clientbench.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which CPUs the stub, the pacer (the thread that drives the load: JMH's benchmark thread) and the client
 * get, and so how the pacer waits and how many I/O threads the client is given.
 *
 * <ul>
 *   <li>4 or more CPUs: the stub the last, the pacer the first, the client the rest; the pacer, alone on
 *       its core, spins the last stretch to each send ({@link LoadSpec.Pacing#SPIN}).</li>
 *   <li>2 or 3: the stub the last, the client and the pacer the rest; the pacer parks
 *       ({@link LoadSpec.Pacing#PARK}): a spinning pacer would take the client's core.</li>
 *   <li>1, no {@code taskset}, or pinning off: nothing pinned, the pacer parks.</li>
 * </ul>
 *
 * @param pinned whether the CPUs below are enforced (taskset); else everyone may use {@code clientCpus}
 * @param stubCpus the stub JVM's CPUs
 * @param clientCpus the client JVM's CPUs (every thread but the pacer)
 * @param pacerCpus the pacer's own CPUs; empty when it shares {@code clientCpus}
 */
public record CpuLayout(boolean pinned, List<Integer> stubCpus, List<Integer> clientCpus, List<Integer> pacerCpus,
                        LoadSpec.Pacing pacing) {

    public CpuLayout {
        stubCpus = List.copyOf(stubCpus);
        clientCpus = List.copyOf(clientCpus);
        pacerCpus = List.copyOf(pacerCpus);
        if (clientCpus.isEmpty()) {
            throw new IllegalArgumentException("no CPU for the client");
        }
    }

    /** The layout for {@code allowed} CPUs (this process's), pinned when {@code pin} and taskset exists. */
    public static CpuLayout plan(List<Integer> allowed, boolean pin) {
        int n = allowed.size();
        if (!pin || n < 2 || StubProcess.taskset() == null) {
            return new CpuLayout(false, allowed, allowed, List.of(), LoadSpec.Pacing.PARK);
        }
        List<Integer> stub = List.of(allowed.get(n - 1));
        if (n >= 4) {
            return new CpuLayout(true, stub, allowed.subList(1, n - 1), List.of(allowed.get(0)), LoadSpec.Pacing.SPIN);
        }
        return new CpuLayout(true, stub, allowed.subList(0, n - 1), List.of(), LoadSpec.Pacing.PARK);
    }

    /** The client's I/O thread budget: one per CPU its threads may use. */
    public int ioThreads() {
        return clientCpus.size();
    }

    /** The CPUs the client JVM may use, the pacer's included: the base of its CPU share. */
    public int jvmCpus() {
        return clientCpus.size() + pacerCpus.size();
    }

    /** This process's CPUs ({@code Cpus_allowed_list}), else 0 .. availableProcessors - 1. */
    public static List<Integer> allowedCpus() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return parseList(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall through
        }
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
            all.add(i);
        }
        return all;
    }

    /** "0-2,5" as [0, 1, 2, 5]. */
    static List<Integer> parseList(String list) {
        List<Integer> out = new ArrayList<>();
        for (String part : list.split(",")) {
            String[] range = part.trim().split("-");
            int from = Integer.parseInt(range[0]);
            int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
            for (int i = from; i <= to; i++) {
                out.add(i);
            }
        }
        return out;
    }

    /** [0, 1, 2, 5] as "0,1,2,5": taskset's list form. */
    public static String format(List<Integer> cpus) {
        return String.join(",", cpus.stream().map(String::valueOf).toList());
    }

    /**
     * Pins every thread of this JVM to the client's CPUs, then the calling thread, the pacer, to its own
     * when it has one. Done at each iteration's start: threads the pacer started since (a client's lazy
     * pool, say) inherited the pacer's CPU and go back to the client's, and JMH may hand the benchmark
     * to another thread.
     */
    public void pinClientAndPacer() {
        if (!pinned) {
            return;
        }
        pinClient();
        if (!pacerCpus.isEmpty()) {
            long tid = currentThreadTid();
            if (tid > 0) {
                taskset("-p", "-c", format(pacerCpus), Long.toString(tid));
            }
        }
    }

    /** Pins every thread of this JVM to the client's CPUs (before the client starts: its threads inherit them). */
    public void pinClient() {
        if (pinned) {
            taskset("-a", "-p", "-c", format(clientCpus), Long.toString(ProcessHandle.current().pid()));
        }
    }

    /** The calling thread's kernel id, from /proc/thread-self ("/proc/PID/task/TID"); -1 where unknown. */
    static long currentThreadTid() {
        try {
            Path link = Files.readSymbolicLink(Path.of("/proc/thread-self"));
            return Long.parseLong(link.getFileName().toString());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static void taskset(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(StubProcess.taskset());
        cmd.addAll(List.of(args));
        try {
            int code = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start().waitFor();
            if (code != 0) {
                System.err.println("clientbench: " + String.join(" ", cmd) + " exited with " + code);
            }
        } catch (IOException e) {
            System.err.println("clientbench: could not pin (" + String.join(" ", cmd) + "): " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** For the trial's record and env.json. */
    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("pinned", pinned);
        m.put("stubCpus", format(stubCpus));
        m.put("clientCpus", format(clientCpus));
        m.put("pacerCpus", pacerCpus.isEmpty() ? "shares the client's" : format(pacerCpus));
        m.put("pacing", pacing.name().toLowerCase(java.util.Locale.ROOT));
        m.put("ioThreads", ioThreads());
        return m;
    }

    /** One line, e.g. "stub 3, pacer 0 (spin), client 1,2". */
    public String describe() {
        if (!pinned) {
            return "not pinned: CPUs " + format(clientCpus) + " shared, pacer parks";
        }
        return "stub " + format(stubCpus) + ", pacer " + (pacerCpus.isEmpty() ? "with the client" : format(pacerCpus))
                + " (" + pacing.name().toLowerCase(java.util.Locale.ROOT) + "), client " + format(clientCpus);
    }
}
