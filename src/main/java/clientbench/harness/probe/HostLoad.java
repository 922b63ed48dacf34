package clientbench.harness.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What else the machine did over a stretch of a run: the share of all its CPU time that processes other than this one
 * and its reaped children kept busy (other load), and the share the hypervisor stole. Both count 10 ms ticks, so they
 * are read over rounds and runs, between readings taken while no child of this process runs.
 */
public final class HostLoad {

    /** The machine's counters and this process's own CPU ticks, its reaped children's included, at one moment. */
    public record Reading(HostSteal.Ticks machine, long ownTicks, long nanoTime) {
    }

    private HostLoad() {
    }

    /** The counters now; a part that cannot be read (not Linux) is null or -1, and its shares are then null. */
    public static Reading now() {
        return new Reading(HostSteal.now(), ownTicks(Path.of("/proc/self/stat")), System.nanoTime());
    }

    /** {@code seconds}, {@code otherCpuShare} and {@code stealShare} (0-1 of every CPU's time) between two readings. */
    public static Map<String, Object> between(Reading from, Reading to) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seconds", Math.round((to.nanoTime() - from.nanoTime()) / 1e7) / 100.0);
        double steal = HostSteal.share(from.machine(), to.machine());
        m.put("otherCpuShare", otherShare(from, to));
        m.put("stealShare", steal < 0 ? null : steal);
        return m;
    }

    /** Busy ticks not this process tree's, over all ticks; null where a counter is missing or no tick passed. */
    static Double otherShare(Reading from, Reading to) {
        if (from.machine() == null || to.machine() == null || from.ownTicks() < 0 || to.ownTicks() < 0) {
            return null;
        }
        long total = to.machine().total() - from.machine().total();
        if (total <= 0) {
            return null;
        }
        long other = (to.machine().busy() - from.machine().busy()) - (to.ownTicks() - from.ownTicks());
        return Math.max(0, other) / (double) total;
    }

    /** utime + stime + cutime + cstime (fields 14-17 of a stat file), in clock ticks; -1 where it cannot be read. */
    static long ownTicks(Path stat) {
        try {
            String line = Files.readString(stat);
            String[] f = line.substring(line.lastIndexOf(')') + 2).trim().split("\\s+");
            long ticks = 0;
            for (int field = 14; field <= 17; field++) {
                ticks += Long.parseLong(f[field - 3]); // f[0] is field 3, the state
            }
            return ticks;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
