package clientbench.results;

import clientbench.harness.probe.CpuPerRequest;
import clientbench.harness.record.JsonFiles;
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
import java.util.Map;
import java.util.TreeMap;

/**
 * The capacity shapes' facts, read from each trial's JSON ({@link CapacityBenchmark} records every probe): per client
 * and round the knee, its bracket, how the search ended, and every probe. Written to summary.json under
 * {@code capacity}; the report's analysis forms the knee over rounds and its interval.
 */
public final class Capacity {

    static final String BENCHMARK = CapacityBenchmark.class.getName() + "." + clientbench.jmh.LoadBenchmark.METHOD;

    /** One probe: one measured iteration at one offered rate, in the fork of round {@code round}. */
    record Probe(int round, double rate, boolean pass, String why, JsonNode slo, long scheduled, long ok, double p50Micros,
                 double p99Micros, double p999Micros, double lagP99Micros, double cpuMicrosPerRequest,
                 double allocatedBytesPerRequest, int connectionsUsed, double jitShare, long gcPauseMillis, double stealShare,
                 List<String> flags) {
    }

    /**
     * One fork's search (one per round): its knee (0 when no rate passed), the lowest failing rate (NaN: none), and
     * how it ended ({@link clientbench.harness.CapacitySearch.Status}, with the flags at its bound).
     */
    record Fork(int round, double knee, double kneeHigh, boolean converged, String status, List<String> flagsAtBound,
                String search) {
    }

    /** One (shape, client): its forks and probes. */
    record Result(String shape, String client, List<Fork> forks, List<Probe> probes) {
    }

    private Capacity() {
    }

    /** Every capacity trial in the run folder, grouped by (shape, client), forks in the order they ran. */
    public static List<Result> read(Path runDir) throws IOException {
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
            for (JsonNode trial : forks) {
                int round = trial.path("round").asInt(1);
                JsonNode last = null;
                for (JsonNode it : trial.path("iterations")) {
                    if (!it.path("measured").asBoolean()) {
                        continue;
                    }
                    probes.add(probe(round, it));
                    last = it;
                }
                if (last != null && last.has("knee")) {
                    List<String> flags = new ArrayList<>();
                    last.path("knee.flagsAtBound").forEach(f -> flags.add(f.asText()));
                    forkResults.add(new Fork(round, last.path("knee").asDouble(), num(last.path("knee.high")),
                            last.path("knee.converged").asInt() == 1, last.path("knee.status").asText(), flags,
                            last.path("knee.search").asText()));
                }
            }
            out.add(new Result(key[0], key[1], forkResults, probes));
        }
        return out;
    }

    private static Probe probe(int round, JsonNode it) {
        long sent = it.path("sent").asLong();
        List<String> flags = new ArrayList<>();
        it.path("flags").forEach(f -> flags.add(f.asText()));
        JsonNode lat = it.path("latencyMicros");
        return new Probe(round, it.path("probe.rate").asDouble(it.path("offeredRate").asDouble()),
                it.path("probe.pass").asInt() == 1, it.path("probe.why").asText(""), it.path("slo"),
                it.path("scheduled").asLong(), it.path("ok").asLong(), num(lat.path("p50")), num(lat.path("p99")),
                num(lat.path("p999")), num(it.path("lagMicros").path("p99")),
                sent > 0 && CpuPerRequest.nanos(it) >= 0 ? CpuPerRequest.nanos(it) / 1e3 / sent : Double.NaN,
                sent > 0 && it.path("allocatedBytesInWindow").asLong() >= 0 ? (double) it.path("allocatedBytesInWindow").asLong() / sent : Double.NaN,
                it.path("probes").path("connectionsUsed").asInt(-1), it.path("probes").path("jitShare").asDouble(-1),
                it.path("probes").path("gcPauseMillis").asLong(-1), it.path("probes").path("stealShare").asDouble(-1), flags);
    }

    private static double num(JsonNode n) {
        return n.isNumber() ? n.asDouble() : Double.NaN;
    }

    /** For summary.json: per (shape, client), each fork's search and each probe. */
    static List<Map<String, Object>> toJson(List<Result> all) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Result r : all) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("shape", r.shape);
            m.put("client", r.client);
            m.put("forks", r.forks.stream().map(f -> {
                Map<String, Object> fm = new LinkedHashMap<>();
                fm.put("round", f.round);
                fm.put("knee", f.knee);
                fm.put("kneeHigh", num(f.kneeHigh));
                fm.put("converged", f.converged);
                fm.put("status", f.status);
                fm.put("flagsAtBound", f.flagsAtBound);
                fm.put("search", f.search);
                return fm;
            }).toList());
            m.put("probes", r.probes.stream().map(p -> {
                Map<String, Object> pm = new LinkedHashMap<>();
                pm.put("round", p.round);
                pm.put("rate", p.rate);
                pm.put("pass", p.pass);
                pm.put("why", p.why);
                pm.put("slo", p.slo);
                pm.put("scheduled", p.scheduled);
                pm.put("ok", p.ok);
                pm.put("latencyP50Micros", num(p.p50Micros));
                pm.put("latencyP99Micros", num(p.p99Micros));
                pm.put("latencyP999Micros", num(p.p999Micros));
                pm.put("lagP99Micros", num(p.lagP99Micros));
                pm.put("cpuMicrosPerRequest", num(p.cpuMicrosPerRequest));
                pm.put("allocatedBytesPerRequest", num(p.allocatedBytesPerRequest));
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
