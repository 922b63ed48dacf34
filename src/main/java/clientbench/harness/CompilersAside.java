package clientbench.harness;

import clientbench.harness.probe.JitTime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Once a fork is steady: its JIT compiler threads run on the stub's CPUs, not the client's. A compilation that comes
 * in a measured window then neither delays the pacer's sends nor starves, as it can at a lower priority on the
 * client's CPU (SCHED_IDLE) while the threads waiting for its code spin.
 */
public final class CompilersAside {

    private CompilersAside() {
    }

    /**
     * Moves each compiler thread to {@code cpus}; returns where the threads run after, read back from /proc
     * ({@link #describe}). Threads the JIT starts later inherit the CPUs of the compiler thread that starts them.
     */
    public static String to(List<Integer> cpus) {
        CpuLayout.compilersTo(cpus);
        return describe(cpus);
    }

    /** "2 of 2 compiler threads on CPUs 1", read from /proc; "no compiler thread seen" where /proc tells none. */
    public static String describe(List<Integer> cpus) {
        List<Long> ids = JitTime.compilerThreadIds();
        if (ids.isEmpty()) {
            return "no compiler thread seen";
        }
        Set<Integer> wanted = new TreeSet<>(cpus);
        int there = 0;
        for (long tid : ids) {
            if (wanted.equals(allowedCpus(Path.of("/proc/self/task", Long.toString(tid), "status")))) {
                there++;
            }
        }
        return there + " of " + ids.size() + " compiler threads on CPUs " + CpuLayout.format(cpus);
    }

    /** A thread's {@code Cpus_allowed_list} in its /proc status ("0-2,5"); empty where it cannot be read. */
    static Set<Integer> allowedCpus(Path status) {
        Set<Integer> cpus = new TreeSet<>();
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    cpus.addAll(CpuLayout.parseList(line.substring(line.indexOf(':') + 1).trim()));
                }
            }
        } catch (IOException | RuntimeException e) {
            return Set.of();
        }
        return cpus;
    }
}
