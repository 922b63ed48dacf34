package clientbench.harness.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The hypervisor's steal ({@code /proc/stat}'s cpu line, summed over CPUs): time the machine was ready to run while the
 * host ran other guests, slowing client, stub and harness alike, hence machine-wide. It counts 10 ms ticks, so a 2 s
 * window on 2 CPUs knows its share to a quarter percent.
 */
public final class HostSteal {

    /** The machine's counters at one moment: ticks stolen, ticks busy (neither idle, waiting nor stolen), ticks in all. */
    public record Ticks(long steal, long busy, long total) {
    }

    private static final Path PROC_STAT = Path.of("/proc/stat");

    private HostSteal() {
    }

    /** The counters now, or null where they cannot be read (not Linux, or a kernel without the steal column). */
    public static Ticks now() {
        try {
            for (String line : Files.readAllLines(PROC_STAT)) {
                if (line.startsWith("cpu ")) {
                    return parse(line);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: no steal to report
        }
        return null;
    }

    /**
     * The {@code cpu} line's counters: user, nice, system, idle, iowait, irq, softirq, steal (guest time is
     * already inside user and nice, so it is not added again); null when the line has no steal column.
     */
    static Ticks parse(String cpuLine) {
        String[] f = cpuLine.trim().split("\\s+");
        if (f.length < 9) {
            return null;
        }
        long total = 0;
        for (int i = 1; i <= 8; i++) {
            total += Long.parseLong(f[i]);
        }
        long idleOrWaiting = Long.parseLong(f[4]) + Long.parseLong(f[5]);
        long steal = Long.parseLong(f[8]);
        return new Ticks(steal, total - idleOrWaiting - steal, total);
    }

    /** The share of the machine's CPU time stolen between two readings (0-1); -1 when either is missing or no tick passed. */
    public static double share(Ticks from, Ticks to) {
        if (from == null || to == null || to.total() <= from.total()) {
            return -1;
        }
        return (double) (to.steal() - from.steal()) / (to.total() - from.total());
    }
}
