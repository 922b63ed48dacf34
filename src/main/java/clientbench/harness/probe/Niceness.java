package clientbench.harness.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A process's scheduling priority as the kernel holds it: the nice value in {@code /proc/PID/stat} (field 19). A run
 * records what its processes got, read back, never what was asked: a raise the system refused shows as it is.
 */
public final class Niceness {

    /** The value where it cannot be read (not Linux, or the process is gone). */
    public static final int UNKNOWN = Integer.MIN_VALUE;

    private Niceness() {
    }

    /** This process's nice value (its main thread's), or {@link #UNKNOWN}. */
    public static int self() {
        return of(ProcessHandle.current().pid());
    }

    /** The nice value of process {@code pid}, or {@link #UNKNOWN}. */
    public static int of(long pid) {
        try {
            return parse(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        }
    }

    /** Field 19 of a stat line; the command name in parentheses may hold spaces, so fields count from its ')'. */
    static int parse(String statLine) {
        String[] f = statLine.substring(statLine.lastIndexOf(')') + 2).trim().split("\\s+");
        return Integer.parseInt(f[19 - 3]); // f[0] is field 3, the state
    }
}
