package clientbench.harness;

import clientbench.harness.probe.JitTime;
import clientbench.harness.probe.KernelThreadId;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which CPUs the stub, the pacer (JMH's benchmark thread) and the client get. With 4+ CPUs: the stub the last, the
 * pacer the first, spinning ({@link LoadSpec.Pacing#SPIN}), the client the rest; with 2-3 the client and the parking
 * pacer share all but the stub's; with 1, no taskset or pinning off, nothing is pinned and the pacer parks.
 */
public record CpuLayout(boolean pinned, List<Integer> stubCpus, List<Integer> clientCpus, List<Integer> pacerCpus,
                        LoadSpec.Pacing pacing) {

    /** A fork's system property: {@code false} pins none of its threads, nor the stub the launcher starts for it. */
    public static final String PIN = "clientbench.pin";

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
    public static List<Integer> parseList(String list) {
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
     * Pins every thread of this JVM to the client's CPUs, then the pacer (the caller) to its own, if any. Done at each
     * iteration's start, as threads the pacer started meanwhile (a lazy pool) inherited its CPU, and JMH may switch
     * threads. Returns what did not go as planned, as layout facts for the trial's record; empty when all did.
     */
    public Map<String, Object> pinClientAndPacer() {
        return pinClientAndPacer(KernelThreadId.THREAD_SELF);
    }

    /** As {@link #pinClientAndPacer()}, the calling thread's id read from the link {@code threadSelf}. */
    Map<String, Object> pinClientAndPacer(Path threadSelf) {
        if (!pinned) {
            return Map.of();
        }
        String client = pinClient();
        if (client != null) {
            return Map.of("pinned", false, "pinFailure", client);
        }
        if (pacerCpus.isEmpty()) {
            return Map.of();
        }
        long tid = KernelThreadId.of(threadSelf);
        String pacer = tid > 0 ? taskset("-p", "-c", format(pacerCpus), Long.toString(tid))
                : "the pacer's thread id could not be read from " + threadSelf + ": it runs on the client's CPUs";
        return pacer == null ? Map.of() : Map.of("pacerPinned", false, "pacerPinFailure", pacer);
    }

    /**
     * Pins every thread of this JVM to the client's CPUs (before the client starts: its threads inherit them). Returns
     * null once pinned (or when not asked to pin), else why not.
     */
    public String pinClient() {
        return pinned ? taskset("-a", "-p", "-c", format(clientCpus), Long.toString(ProcessHandle.current().pid())) : null;
    }

    /**
     * Lets the JIT's compiler threads run on every CPU of the layout, the stub's too, until the next
     * {@link #pinClientAndPacer}: on 2 cores a cold client at a high rate fills its one CPU and starves its own JIT, so
     * it stays cold deep into the warm-up. Only while warming up; every measured window starts with all pinned back.
     */
    public void lendCpusToCompilers() {
        if (!pinned) {
            return;
        }
        java.util.TreeSet<Integer> all = new java.util.TreeSet<>(clientCpus);
        all.addAll(pacerCpus);
        all.addAll(stubCpus);
        compilersTo(List.copyOf(all));
    }

    /** Pins each of this JVM's JIT compiler threads to {@code cpus}; threads it starts later inherit them. */
    static void compilersTo(List<Integer> cpus) {
        for (long tid : JitTime.compilerThreadIds()) {
            threadTo(tid, cpus);
        }
    }

    /** Pins this JVM's thread {@code tid} (its kernel id) to {@code cpus}; null once pinned, else why not. */
    static String threadTo(long tid, List<Integer> cpus) {
        return tid > 0 ? taskset("-p", "-c", format(cpus), Long.toString(tid)) : "its thread id was not read";
    }

    /** Runs taskset; null when it worked, else the command and what it said. */
    private static String taskset(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(StubProcess.taskset());
        cmd.addAll(List.of(args));
        String why;
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String said = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            int code = p.waitFor();
            if (code == 0) {
                return null;
            }
            why = String.join(" ", cmd) + " exited with " + code + ": " + said.lines().findFirst().orElse("").strip();
        } catch (IOException e) {
            why = "could not run " + String.join(" ", cmd) + ": " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            why = "interrupted: " + String.join(" ", cmd);
        }
        System.err.println("clientbench: " + why);
        return why;
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
