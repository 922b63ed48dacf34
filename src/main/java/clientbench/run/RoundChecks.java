package clientbench.run;

import clientbench.adapters.Adapters;
import clientbench.harness.probe.CpuPerRequest;
import clientbench.harness.record.HlogFile;
import clientbench.harness.record.JsonFiles;
import clientbench.harness.record.Thresholds;
import com.fasterxml.jackson.databind.JsonNode;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether the host slowed a round of a shape, judged once, here: median steal at or above
 * {@link Thresholds#ROUND_STEAL_SHARE}, or noop's CPU per request above {@link Thresholds#NOOP_SLOW_FACTOR} times its
 * median over rounds. A flagged round may run again ({@link Repeats}); the report reads the flags, never judging again.
 */
final class RoundChecks {

    private RoundChecks() {
    }

    /**
     * One round of one shape as it ran: its facts and the flags they raise ({@code steal}, {@code noop-slow}:
     * {@link #flag}). {@code stealMedian} is over the round's measured windows; {@code floor} is noop's latency there,
     * the harness floor of that round; NaN values were not recorded.
     */
    record Facts(String shape, int round, double stealMedian, double noopCpuMicros, Floor floor, List<String> flags) {

        Facts(String shape, int round, double stealMedian, double noopCpuMicros, List<String> flags) {
            this(shape, round, stealMedian, noopCpuMicros, Floor.NONE, flags);
        }

        Map<String, Object> toJson() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("shape", shape);
            m.put("round", round);
            m.put("stealMedian", Double.isNaN(stealMedian) ? null : stealMedian);
            m.put("noopCpuMicrosPerRequest", Double.isNaN(noopCpuMicros) ? null : noopCpuMicros);
            m.put("noopLatencyP50Micros", floor.p50Micros() < 0 ? null : floor.p50Micros());
            m.put("noopLatencyP99Micros", floor.p99Micros() < 0 ? null : floor.p99Micros());
            m.put("flags", flags);
            return m;
        }
    }

    /** noop's latency from the intended start, its measured windows' histograms merged; -1 where not measured. */
    record Floor(long p50Micros, long p99Micros) {
        static final Floor NONE = new Floor(-1, -1);

        static Floor of(Path hlog) throws IOException {
            Histogram h = Files.isRegularFile(hlog) ? HlogFile.merged(hlog, HlogFile.LATENCY_TAG) : null;
            return h == null || h.getTotalCount() == 0 ? NONE
                    : new Floor(h.getValueAtPercentile(50), h.getValueAtPercentile(99));
        }
    }

    /** A round's facts, read from its trial records ({@code *.trial.json} among {@code files}), not yet flagged. */
    static Facts read(String shape, int round, Collection<Path> files) throws IOException {
        List<Double> steal = new ArrayList<>();
        double noopCpu = Double.NaN;
        Floor floor = Floor.NONE;
        for (Path f : files) {
            if (!f.getFileName().toString().endsWith(".trial.json")) {
                continue;
            }
            JsonNode t = JsonFiles.MAPPER.readTree(f.toFile());
            long cpuNanos = 0;
            boolean cpuKnown = true; // one window's CPU unknown leaves the fork's unknown, as the analysis reads it
            long sent = 0;
            for (JsonNode it : t.path("iterations")) {
                if (!it.path("measured").asBoolean()) {
                    continue;
                }
                double s = it.path("probes").path("stealShare").asDouble(-1);
                if (s >= 0) {
                    steal.add(s);
                }
                long windowCpu = CpuPerRequest.nanos(it);
                cpuKnown &= windowCpu >= 0;
                cpuNanos += windowCpu;
                sent += it.path("sent").asLong();
            }
            if (Adapters.NOOP.equals(t.path("client").asText())) {
                noopCpu = sent > 0 && cpuKnown ? cpuNanos / 1e3 / sent : Double.NaN;
                // A closed loop logs service time only: its log has no latency intervals, so no floor.
                floor = t.path("hlog").isTextual() ? Floor.of(f.resolveSibling(t.path("hlog").asText())) : Floor.NONE;
            }
        }
        return new Facts(shape, round, median(steal), noopCpu, floor, List.of());
    }

    /**
     * The flags of {@code f} among the rounds of its shape ({@code all}, itself included): steal over the bound, or
     * noop's CPU per request above the factor times its median over those rounds (two rounds at least).
     */
    static Facts flag(Facts f, Collection<Facts> all) {
        List<String> flags = new ArrayList<>();
        if (f.stealMedian() >= Thresholds.ROUND_STEAL_SHARE) {
            flags.add("steal");
        }
        List<Double> noop = all.stream().filter(o -> o.shape().equals(f.shape()) && !Double.isNaN(o.noopCpuMicros()))
                .map(Facts::noopCpuMicros).toList();
        if (noop.size() >= 2 && f.noopCpuMicros() > Thresholds.NOOP_SLOW_FACTOR * median(noop)) {
            flags.add("noop-slow");
        }
        return new Facts(f.shape(), f.round(), f.stealMedian(), f.noopCpuMicros(), f.floor(), List.copyOf(flags));
    }

    static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> v = values.stream().sorted().toList();
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }
}
