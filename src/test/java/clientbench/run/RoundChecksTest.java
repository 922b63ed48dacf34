package clientbench.run;

import clientbench.harness.record.JsonFiles;
import clientbench.harness.record.Thresholds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A round's facts are read from its trial records' measured windows alone, and it is flagged for steal at the bound
 * or for noop's CPU per request above the factor times its median over the shape's rounds; every expected value here
 * is worked out by hand from the windows written.
 */
class RoundChecksTest {

    @TempDir
    Path dir;

    /** One window of a trial record: whether measured, the host's steal share, CPU ns in it, requests sent. */
    record Window(boolean measured, double steal, long cpuNanos, long sent) {
        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("measured", measured);
            m.put("probes", Map.of("stealShare", steal));
            m.put("cpuNanosInWindow", cpuNanos);
            m.put("sent", sent);
            return m;
        }
    }

    /** A trial record of {@code client} with these windows, as the harness names and writes it. */
    static Path trial(Path dir, String name, String client, Window... windows) throws IOException {
        List<Object> its = new ArrayList<>();
        for (Window w : windows) {
            its.add(w.json());
        }
        Path f = dir.resolve(name + ".trial.json");
        JsonFiles.writeAtomically(f, Map.of("client", client, "iterations", its));
        return f;
    }

    @Test
    void aRoundsFactsComeFromItsMeasuredWindowsOnly() throws Exception {
        // Steal over measured windows of every client: 0.02, 0.30, 0.04 -> median 0.04 (the warm-up's 0.90 left out).
        // noop: 6,000,000 ns over 2,000 requests in its measured windows = 3 us a request (the warm-up's left out).
        Path jdk = trial(dir, "jdk-1", "jdk", new Window(false, 0.90, 9_000_000, 10), new Window(true, 0.02, 5_000_000, 1_000));
        Path noop = trial(dir, "noop-1", "noop", new Window(true, 0.30, 2_000_000, 500),
                new Window(true, 0.04, 4_000_000, 1_500), new Window(false, 0.90, 50_000_000, 1));
        Path hlog = dir.resolve("noop-1.hlog"); // not a record: passed over
        RoundChecks.Facts f = RoundChecks.read("rate-4000", 2, List.of(jdk, noop, hlog));
        assertEquals("rate-4000", f.shape());
        assertEquals(2, f.round());
        assertEquals(0.04, f.stealMedian(), 1e-12);
        assertEquals(3.0, f.noopCpuMicros(), 1e-12);
        assertEquals(List.of(), f.flags(), "read, not yet flagged");
    }

    @Test
    void aRoundWithoutNoopOrStealHasNoFigureForThem() throws Exception {
        Path jdk = trial(dir, "jdk-1", "jdk", new Window(true, -1, 5_000_000, 1_000));
        RoundChecks.Facts f = RoundChecks.read("closed-x16", 1, List.of(jdk));
        assertEquals(Double.NaN, f.stealMedian());
        assertEquals(Double.NaN, f.noopCpuMicros());
    }

    /** A measured window whose CPU read failed (-1) leaves noop's figure unknown, as the analysis's forks() has it. */
    @Test
    void noopsCpuWithOneUnknownWindowIsUnknownNotCountedAsZero() throws Exception {
        Path noop = trial(dir, "noop-1", "noop", new Window(true, 0.01, 2_000_000, 500), new Window(true, 0.01, -1, 1_500));
        RoundChecks.Facts f = RoundChecks.read("rate-4000", 1, List.of(noop));
        assertEquals(Double.NaN, f.noopCpuMicros(), "counted as 0 it would read 2,000,000 ns / 2,000 = 1 us");
        assertEquals(null, f.toJson().get("noopCpuMicrosPerRequest"));
        RoundChecks.Facts known = RoundChecks.read("rate-4000", 1,
                List.of(trial(dir, "noop-2", "noop", new Window(true, 0.01, 2_000_000, 500))));
        assertEquals(4.0, known.noopCpuMicros(), 1e-12, "2,000,000 ns / 500 requests");
    }

    /**
     * The harness floor of a round is noop's latency with its windows' histograms merged, not an average of each
     * window's: here a window of 197 answers at 20 us and 3 at 1,000 us, and one of 200 at 20 us. Merged, the 396th of
     * 400 values (p99) is 20 us; the first window's p99 alone is 1,000 us. A closed loop logs no latency: no floor.
     */
    @Test
    void theHarnessFloorIsNoopsLatencyFromItsMergedWindows() throws Exception {
        Path noop = trialWithLog("noop-1", "latency", new long[][] {{20, 197}, {1_000, 3}}, new long[][] {{20, 200}});
        RoundChecks.Facts f = RoundChecks.read("rate-4000", 1, List.of(noop));
        assertEquals(20, f.floor().p50Micros());
        assertEquals(20, f.floor().p99Micros());
        Path skewed = trialWithLog("noop-2", "latency", new long[][] {{20, 190}, {1_000, 10}}, new long[][] {{20, 200}});
        assertEquals(1_000, RoundChecks.read("rate-4000", 2, List.of(skewed)).floor().p99Micros(), "10 of 400 above p99");
        Path closed = trialWithLog("noop-3", "service", new long[][] {{20, 200}});
        RoundChecks.Facts c = RoundChecks.read("closed-x16", 1, List.of(closed));
        assertEquals(null, c.toJson().get("noopLatencyP99Micros"));
    }

    /** A noop trial record and its .hlog: one interval tagged {@code tag} per window of {value, count} pairs. */
    private Path trialWithLog(String name, String tag, long[][]... windows) throws IOException {
        Path hlog = dir.resolve(name + ".hlog");
        try (var out = new java.io.PrintStream(hlog.toFile())) {
            var writer = new org.HdrHistogram.HistogramLogWriter(out);
            writer.outputLogFormatVersion();
            writer.outputBaseTime(0);
            writer.outputLegend();
            for (int w = 0; w < windows.length; w++) {
                var h = new org.HdrHistogram.Histogram(3);
                for (long[] valueCount : windows[w]) {
                    h.recordValueWithCount(valueCount[0], valueCount[1]);
                }
                h.setTag(tag);
                writer.outputIntervalHistogram(w, w + 1, h, 1000.0);
            }
        }
        Path f = dir.resolve(name + ".trial.json");
        JsonFiles.writeAtomically(f, Map.of("client", "noop", "hlog", hlog.getFileName().toString(),
                "iterations", List.of(new Window(true, 0, 1_000, 400).json())));
        return f;
    }

    @Test
    void stealAtTheBoundFlagsTheRoundAndJustBelowDoesNot() {
        double bound = Thresholds.ROUND_STEAL_SHARE;
        RoundChecks.Facts at = facts("rate-4000", 1, bound, Double.NaN);
        RoundChecks.Facts below = facts("rate-4000", 2, Math.nextDown(bound), Double.NaN);
        assertEquals(List.of("steal"), RoundChecks.flag(at, List.of(at, below)).flags());
        assertEquals(List.of(), RoundChecks.flag(below, List.of(at, below)).flags());
    }

    @Test
    void noopSlowerThanTheFactorTimesItsMedianOverTheShapesRoundsFlagsTheRound() {
        double factor = Thresholds.NOOP_SLOW_FACTOR;
        // Rounds of rate-4000 at 2, 2 and 2 x factor + 0.1 us: median 2, so the third is over factor x 2.
        RoundChecks.Facts r1 = facts("rate-4000", 1, 0, 2.0);
        RoundChecks.Facts r2 = facts("rate-4000", 2, 0, 2.0);
        RoundChecks.Facts slow = facts("rate-4000", 3, 0, 2.0 * factor + 0.1);
        RoundChecks.Facts exact = facts("rate-4000", 3, 0, 2.0 * factor);
        // Another shape's noop, far slower, is not among rate-4000's rounds.
        RoundChecks.Facts other = facts("closed-x16", 1, 0, 100.0);
        List<RoundChecks.Facts> all = List.of(r1, r2, slow, other);
        assertEquals(List.of("noop-slow"), RoundChecks.flag(slow, all).flags());
        assertEquals(List.of(), RoundChecks.flag(r1, all).flags());
        assertEquals(List.of(), RoundChecks.flag(exact, List.of(r1, r2, exact, other)).flags(), "at the factor: not over it");
        assertEquals(List.of(), RoundChecks.flag(other, all).flags(), "one round of its shape: no median to be slow against");
        RoundChecks.Facts both = facts("rate-4000", 3, 0.5, 2.0 * factor + 0.1);
        assertEquals(List.of("steal", "noop-slow"), RoundChecks.flag(both, List.of(r1, r2, both)).flags());
    }

    static RoundChecks.Facts facts(String shape, int round, double steal, double noopCpuMicros) {
        return new RoundChecks.Facts(shape, round, steal, noopCpuMicros, List.of());
    }
}
