package clientbench.cli;

import clientbench.adapters.Adapters;
import clientbench.harness.Flag;
import clientbench.harness.JsonFiles;
import clientbench.harness.Probes;
import clientbench.jmh.CapacityBenchmark;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The capacity shapes' facts, read from each trial's JSON ({@link CapacityBenchmark} records every probe
 * there): per client and fork, the knee, its bracket and whether the search converged, and every probe
 * (rate, verdict and why, latency percentiles, flags, cost); per ladder rate, the {@code noop} baseline and
 * each client's cost net of it. Written to summary.json under {@code capacity}; the terminal and the
 * report read the same numbers.
 *
 * <p>Across forks the knee is given as the median with the lowest and highest fork's knee: facts, not an
 * interval. The range of two or three forks holds a further fork's knee only a third to a half of the time,
 * so the report's interval (analysis/clientbench_analysis.py, {@code knees}) widens it by the spread between
 * forks pooled over the shape's clients.
 */
final class Capacity {

    static final String BENCHMARK = CapacityBenchmark.class.getName() + "." + clientbench.jmh.LoadBenchmark.METHOD;

    /** One probe: one measured iteration at one offered rate. */
    record Probe(int fork, double rate, boolean pass, String why, long scheduled, long ok, double p50Micros,
                 double p99Micros, double p999Micros, double lagP99Micros, double cpuMicrosPerRequest,
                 double allocatedBytesPerRequest, int connectionsUsed, double jitShare, long gcPauseMillis, double stealShare,
                 List<String> flags) {
    }

    /**
     * One fork's search: its knee (0 when no rate passed), the lowest failing rate (NaN: none), converged, and
     * {@link #open(double, double, double) open}.
     */
    record Fork(int fork, double knee, double kneeHigh, boolean converged, boolean open, String search) {
    }

    /**
     * Whether a fork's search is open: no rate failed, yet the knee is below the ceiling, so the probe budget ran
     * out before any miss stood (the JIT's, a flag's, or one not yet probed again). Its knee is a lower bound with
     * nothing above it, and the report does not rank it (analysis: {@code knees}).
     */
    static boolean open(double knee, double kneeHigh, double ceiling) {
        return Double.isNaN(kneeHigh) && !(knee >= ceiling);
    }

    /** One (shape, client): its forks and probes. */
    record Result(String shape, String client, List<Fork> forks, List<Probe> probes) {

        double kneeMedian() {
            List<Double> k = forks.stream().map(Fork::knee).sorted().toList();
            if (k.isEmpty()) {
                return Double.NaN;
            }
            int n = k.size();
            return n % 2 == 1 ? k.get(n / 2) : (k.get(n / 2 - 1) + k.get(n / 2)) / 2;
        }

        double kneeMin() {
            return forks.stream().mapToDouble(Fork::knee).min().orElse(Double.NaN);
        }

        double kneeMax() {
            return forks.stream().mapToDouble(Fork::knee).max().orElse(Double.NaN);
        }

        boolean allConverged() {
            return !forks.isEmpty() && forks.stream().allMatch(Fork::converged);
        }

        boolean anyOpen() {
            return forks.stream().anyMatch(Fork::open);
        }

        /** {@link Capacity#flagsAtBound} over every fork's probes. */
        Set<String> flagsAtBound() {
            Set<String> words = new TreeSet<>();
            forks.forEach(f -> words.addAll(flagsAtBound(f)));
            return words;
        }

        /**
         * {@link Capacity#flagsAtBound} over one fork's misses at its bound, those taken while the JIT compiled over
         * {@link Probes#JIT_WARMING} of the window set aside (the search probed their rate again).
         */
        Set<String> flagsAtBound(Fork f) {
            List<Collection<String>> misses = new ArrayList<>();
            for (Probe p : probes) {
                if (p.fork() == f.fork() && !p.pass() && p.rate() == f.kneeHigh() && !(p.jitShare() > Probes.JIT_WARMING)) {
                    misses.add(p.flags());
                }
            }
            return Capacity.flagsAtBound(misses);
        }

        /** How many forks' searches a miss flagged {@code word} stopped ({@link #flagsAtBound(Fork)}). */
        int forksFlaggedAtBound(String word) {
            return (int) forks.stream().filter(f -> flagsAtBound(f).contains(word)).count();
        }
    }

    /**
     * Adds to {@code words} the flags, other than {@code gen} and {@code lag}, of a probe that missed at a fork's lowest
     * failing rate {@code bound} (NaN: none failed), as short words. {@code gen} and {@code lag}, the client JVM's CPUs
     * full and the pacer late, are what saturation looks like on a shared core (the report weighs them against
     * {@code noop}); any other ({@code steal}, {@code stub}, {@code unsteady}, {@code samples}) says the miss is not the
     * client's alone, and the report then marks the knee flagged and does not rank it (analysis: {@code knees}; both
     * set aside the misses while the JIT compiled and a fork whose bound holds a miss of the client's, {@link
     * Result#flagsAtBound(Fork)}). The terminal's line after each run and its knee table both say it from here: none
     * when one of the misses raised no flag but gen or lag, as that miss was the client's and the bound with it,
     * whatever the other miss there was flagged (a miss stands only when its next probe misses too; the report
     * likewise, where {@code noop} kept the rate).
     *
     * @param misses the raised flags, as {@link Flag#metric()} names, of each miss at a fork's lowest failing rate
     *               (the knee table's leave out those while the JIT compiled, which the search probed again; the line
     *               after each run reads JMH's iterations, which do not say)
     */
    static Set<String> flagsAtBound(Collection<? extends Collection<String>> misses) {
        Set<String> words = new TreeSet<>();
        for (Collection<String> flagMetrics : misses) {
            Set<String> own = new TreeSet<>();
            for (Flag f : Flag.values()) {
                if (f != Flag.GENERATOR && f != Flag.LAG && flagMetrics.contains(f.metric())) {
                    own.add(f.word());
                }
            }
            if (own.isEmpty()) {
                return Set.of();
            }
            words.addAll(own);
        }
        return words;
    }

    private Capacity() {
    }

    /**
     * The terminal's line once a search's last fork has run apart from the others ({@link Profile#schedule}): its
     * knee over the forks in the run folder so far, as the knee table gives it.
     */
    static String overForks(List<Result> all, String shape, String client) {
        return all.stream().filter(r -> r.shape().equals(shape) && r.client().equals(client)).findFirst()
                .map(r -> String.format(Locale.ROOT, "%s %s over its %d forks: knee %.0f req/s (median; forks %.0f-%.0f)%s%s",
                        shape, client, r.forks().size(), r.kneeMedian(), r.kneeMin(), r.kneeMax(),
                        r.anyOpen() ? ", open" : "", r.flagsAtBound().isEmpty() ? ""
                                : ", flagged " + String.join(",", r.flagsAtBound()) + " where it missed"))
                .orElse(shape + " " + client + ": no fork's search in the run folder");
    }

    /** Every capacity trial in the run folder, grouped by (shape, client), forks in the order they ran. */
    static List<Result> read(Path runDir) throws IOException {
        List<Path> all = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(runDir, "*.trial.json")) {
            files.forEach(all::add);
        }
        return read(all);
    }

    /** The capacity trials among {@code trialFiles} (other files and benchmarks are passed over), as {@link #read(Path)}. */
    static List<Result> read(Collection<Path> trialFiles) throws IOException {
        Map<String, List<JsonNode>> trials = new TreeMap<>();
        for (Path f : trialFiles) {
            if (!f.getFileName().toString().endsWith(".trial.json")) {
                continue;
            }
            JsonNode t = JsonFiles.MAPPER.readTree(f.toFile());
            if (BENCHMARK.equals(t.path("benchmark").asText())) {
                trials.computeIfAbsent(t.path("shape").asText() + "\t" + t.path("client").asText(), k -> new ArrayList<>())
                        .add(t);
            }
        }
        List<Result> out = new ArrayList<>();
        for (Map.Entry<String, List<JsonNode>> e : trials.entrySet()) {
            String[] key = e.getKey().split("\t", 2);
            List<JsonNode> forks = new ArrayList<>(e.getValue());
            forks.sort(Comparator.comparingLong(t -> t.path("iterations").path(0).path("windowStartEpochMillis").asLong()));
            List<Fork> forkResults = new ArrayList<>();
            List<Probe> probes = new ArrayList<>();
            for (int i = 0; i < forks.size(); i++) {
                JsonNode last = null;
                for (JsonNode it : forks.get(i).path("iterations")) {
                    if (!it.path("measured").asBoolean()) {
                        continue;
                    }
                    probes.add(probe(i, it));
                    last = it;
                }
                if (last != null && last.has("knee")) {
                    double knee = last.path("knee").asDouble();
                    double high = num(last.path("knee.high"));
                    double ceiling = forks.get(i).path("params").path("ceilingRate").asDouble(Double.NaN);
                    forkResults.add(new Fork(i, knee, high, last.path("knee.converged").asInt() == 1,
                            open(knee, high, ceiling), last.path("knee.search").asText()));
                }
            }
            out.add(new Result(key[0], key[1], forkResults, probes));
        }
        return out;
    }

    private static Probe probe(int fork, JsonNode it) {
        long sent = it.path("sent").asLong();
        List<String> flags = new ArrayList<>();
        it.path("flags").forEach(f -> flags.add(f.asText()));
        JsonNode lat = it.path("latencyMicros");
        return new Probe(fork, it.path("probe.rate").asDouble(it.path("offeredRate").asDouble()),
                it.path("probe.pass").asInt() == 1, it.path("probe.why").asText(""), it.path("scheduled").asLong(),
                it.path("ok").asLong(), num(lat.path("p50")), num(lat.path("p99")), num(lat.path("p999")),
                num(it.path("lagMicros").path("p99")),
                sent > 0 && it.path("cpuNanosInWindow").asLong() >= 0 ? it.path("cpuNanosInWindow").asLong() / 1e3 / sent : Double.NaN,
                sent > 0 && it.path("allocatedBytesInWindow").asLong() >= 0 ? (double) it.path("allocatedBytesInWindow").asLong() / sent : Double.NaN,
                it.path("probes").path("connectionsUsed").asInt(-1), it.path("probes").path("jitShare").asDouble(-1),
                it.path("probes").path("gcPauseMillis").asLong(-1), it.path("probes").path("stealShare").asDouble(-1), flags);
    }

    private static double num(JsonNode n) {
        return n.isNumber() ? n.asDouble() : Double.NaN;
    }

    /**
     * The {@code noop} baseline of one shape: per ladder rate, the mean CPU µs and bytes allocated per request
     * sent over its probes there. A shape without a noop run of its own takes any capacity shape's: noop has no
     * network, so the protocol does not change it; the rate and the pinning, which do, are the same.
     */
    static Map<Double, double[]> baseline(List<Result> all, String shape) {
        boolean own = all.stream().anyMatch(r -> r.shape.equals(shape) && Adapters.NOOP.equals(r.client));
        Map<Double, double[]> sums = new TreeMap<>(); // rate -> cpu sum, alloc sum, count
        for (Result r : all) {
            if ((!own || r.shape.equals(shape)) && Adapters.NOOP.equals(r.client)) {
                for (Probe p : r.probes) {
                    double[] s = sums.computeIfAbsent(p.rate, k -> new double[3]);
                    s[0] += p.cpuMicrosPerRequest;
                    s[1] += p.allocatedBytesPerRequest;
                    s[2]++;
                }
            }
        }
        Map<Double, double[]> mean = new TreeMap<>();
        sums.forEach((rate, s) -> mean.put(rate, new double[] {s[0] / s[2], s[1] / s[2]}));
        return mean;
    }

    /** For summary.json: per (shape, client), the knee over forks, each fork, and each probe with its net cost. */
    static List<Map<String, Object>> toJson(List<Result> all) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Result r : all) {
            Map<Double, double[]> base = baseline(all, r.shape);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("shape", r.shape);
            m.put("client", r.client);
            if (!Adapters.NOOP.equals(r.client)) {
                Map<String, Object> knee = new LinkedHashMap<>();
                knee.put("median", num(r.kneeMedian()));
                knee.put("min", num(r.kneeMin()));
                knee.put("max", num(r.kneeMax()));
                knee.put("converged", r.allConverged());
                knee.put("forks", r.forks.stream().map(f -> {
                    Map<String, Object> fm = new LinkedHashMap<>();
                    fm.put("fork", f.fork);
                    fm.put("knee", f.knee);
                    fm.put("kneeHigh", num(f.kneeHigh));
                    fm.put("converged", f.converged);
                    fm.put("search", f.search);
                    return fm;
                }).toList());
                m.put("knee", knee);
            }
            m.put("probes", r.probes.stream().map(p -> {
                Map<String, Object> pm = new LinkedHashMap<>();
                pm.put("fork", p.fork);
                pm.put("rate", p.rate);
                pm.put("pass", p.pass);
                pm.put("why", p.why);
                pm.put("scheduled", p.scheduled);
                pm.put("ok", p.ok);
                pm.put("latencyP50Micros", num(p.p50Micros));
                pm.put("latencyP99Micros", num(p.p99Micros));
                pm.put("latencyP999Micros", num(p.p999Micros));
                pm.put("lagP99Micros", num(p.lagP99Micros));
                pm.put("cpuMicrosPerRequest", num(p.cpuMicrosPerRequest));
                pm.put("allocatedBytesPerRequest", num(p.allocatedBytesPerRequest));
                double[] b = base.get(p.rate);
                pm.put("netCpuMicrosPerRequest", b == null ? null : num(p.cpuMicrosPerRequest - b[0]));
                pm.put("netAllocatedBytesPerRequest", b == null ? null : num(p.allocatedBytesPerRequest - b[1]));
                pm.put("connectionsUsed", p.connectionsUsed);
                pm.put("jitShare", p.jitShare < 0 ? null : num(p.jitShare));
                pm.put("gcPauseMillis", p.gcPauseMillis < 0 ? null : p.gcPauseMillis);
                pm.put("stealShare", p.stealShare < 0 ? null : num(p.stealShare));
                pm.put("flags", p.flags);
                return pm;
            }).toList());
            out.add(m);
        }
        return out;
    }

    private static Double num(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? null : v;
    }
}
