package clientbench.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Once a fork is steady: its JIT compiler threads run only on CPU the client leaves idle (Linux's SCHED_IDLE, asked
 * with {@code chrt}). A compilation that comes in a measured window then waits for the client instead of the pacer
 * waiting behind it; threads the JIT starts later inherit the policy from the compiler thread that starts them.
 */
public final class CompilersYield {

    /** Linux's SCHED_IDLE, as {@code /proc/TID/stat} reports a thread's policy. */
    static final int SCHED_IDLE = 5;
    /** The policy's index in {@code /proc/TID/stat} after the bracketed name: field 41 (man 5 proc), field 3 at 0. */
    private static final int POLICY_AFTER_NAME = 41 - 3;

    private CompilersYield() {
    }

    /**
     * Asks SCHED_IDLE for each compiler thread; returns what the threads run with after, read back from /proc
     * ({@link #describe}). Never undone: going back needs a privilege most users lack, and nothing needs it.
     */
    public static String now() {
        for (long tid : JitTime.compilerThreadIds()) {
            chrt(tid);
        }
        return describe();
    }

    /** "2 of 2 compiler threads SCHED_IDLE", read from /proc; "no compiler thread seen" where /proc tells none. */
    public static String describe() {
        List<Long> ids = JitTime.compilerThreadIds();
        if (ids.isEmpty()) {
            return "no compiler thread seen";
        }
        int idle = 0;
        for (long tid : ids) {
            if (policy(Path.of("/proc/self/task", Long.toString(tid), "stat")) == SCHED_IDLE) {
                idle++;
            }
        }
        return idle + " of " + ids.size() + " compiler threads SCHED_IDLE";
    }

    /** The scheduling policy in a stat line (its name in brackets holds no bracket); -1 where it cannot be read. */
    static int policy(Path stat) {
        try {
            String line = Files.readString(stat);
            String[] after = line.substring(line.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(after[POLICY_AFTER_NAME]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static void chrt(long tid) {
        CpuLayout.runQuietly(List.of("chrt", "--idle", "-p", "0", Long.toString(tid)));
    }
}
