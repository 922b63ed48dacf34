package clientbench.harness;

import clientbench.api.Outcome;
import clientbench.harness.probe.JvmCounters;
import clientbench.harness.record.IterationSnapshot;
import clientbench.harness.record.JsonFiles;
import clientbench.harness.rule.Flag;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One trial's facts as JSON beside its histogram log ({@code x.hlog} has {@code x.trial.json}), so readers need not
 * parse file names: what ran, the client's library and settings, the CPU layout and a record per iteration. Rewritten
 * whole after each iteration.
 */
final class TrialRecord {

    private final Path file;
    private final Map<String, Object> json = new LinkedHashMap<>();
    private final List<Map<String, Object>> iterations = new ArrayList<>();

    /**
     * @param about what ran: {@code benchmark}, {@code params}, {@code shape} (from the runner; may be empty)
     */
    TrialRecord(Path hlog, String client, Map<String, Object> about, Map<String, String> settings, CpuLayout layout) {
        this.file = fileFor(hlog);
        json.put("client", client);
        json.putAll(about);
        json.put("hlog", hlog.getFileName().toString());
        json.put("layout", layout.toJson());
        json.put("settings", new LinkedHashMap<>(settings));
        json.put("iterations", iterations);
        write();
    }

    /** The trial's record beside its log: {@code x.hlog} has {@code x.trial.json}. */
    static Path fileFor(Path hlog) {
        String name = hlog.getFileName().toString();
        return hlog.resolveSibling(name.substring(0, name.length() - ".hlog".length()) + ".trial.json");
    }

    /**
     * The client's settings as it reports them now: some exist only once a connection is open (the TLS
     * protocol and cipher negotiated, the channel class), so they are read again after every iteration.
     */
    @SuppressWarnings("unchecked")
    void settings(Map<String, String> now) {
        ((Map<String, String>) json.get("settings")).putAll(now);
    }

    /** A fact of the CPU layout learnt once the trial runs (the pacer's timer slack), beside the planned ones. */
    @SuppressWarnings("unchecked")
    void layout(String key, Object value) {
        ((Map<String, Object>) json.get("layout")).put(key, value);
    }

    /** A fact of the whole trial (its warm-up, say), written at once. */
    void put(String key, Object value) {
        json.put(key, value);
        write();
    }

    /** How many iterations are recorded: the index the next one gets. */
    int iterationCount() {
        return iterations.size();
    }

    void add(IterationSnapshot s, boolean measured, Map<String, ?> facts) {
        Map<String, Object> it = new LinkedHashMap<>();
        it.put("index", iterations.size());
        it.put("measured", measured);
        if (s.openModel()) {
            it.put("offeredRate", s.offeredRatePerSecond());
        }
        it.put("windowNanos", s.windowNanos());
        it.put("windowStartEpochMillis", s.windowStartEpochMillis());
        it.put("scheduled", s.scheduled());
        it.put("sent", s.sent());
        it.put("dropped", s.dropped());
        it.put("unsent", s.unsent());
        it.put("ok", s.ok());
        Map<String, Long> failures = new LinkedHashMap<>();
        for (Outcome o : Outcome.failures()) {
            failures.put(o.label(), s.count(o));
        }
        it.put("failures", failures);
        it.put("expiredAtDrain", s.expiredAtDrain());
        it.put("duplicates", s.duplicates());
        it.put("inFlightAtClose", s.inFlightAtClose());
        it.put("inFlightPeak", s.inFlightPeak());
        it.put("inFlightPeakAfterNanos", s.inFlightPeakAfterNanos());
        it.put("cpuNanosInWindow", s.cpuNanosInWindow());
        // How this window's CPU time was taken ("ns", "ticks", "failed", "none"): the verdict ranks only "ns".
        it.put("cpuClock", s.windowNanos() > 0 ? JvmCounters.windowClock(s.cpuNanosInWindow()) : "not read");
        it.put("pacerCpuNanosInWindow", s.pacerCpuNanosInWindow());
        it.put("allocatedBytesInWindow", s.allocatedBytesInWindow());
        it.put("bodyBytesMin", s.bodyBytesMin());
        it.put("bodyBytesMax", s.bodyBytesMax());
        String latency = s.openModel() ? "latency" : "service";
        it.put(latency + "Micros", percentiles(s.latency()));
        it.put(latency + "OkMicros", percentiles(s.latencyOk()));
        if (s.openModel()) {
            it.put("serviceMicros", percentiles(s.service()));
            it.put("lagMicros", percentiles(s.lag()));
        }
        it.put("probes", s.probes());
        it.put("flags", Flag.raisedBy(s).stream().map(Flag::metric).toList());
        it.putAll(facts);
        iterations.add(it);
        write();
    }

    private static Map<String, Object> percentiles(Histogram h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", h.getTotalCount());
        if (h.getTotalCount() > 0) {
            m.put("p50", h.getValueAtPercentile(50));
            m.put("p90", h.getValueAtPercentile(90));
            m.put("p99", h.getValueAtPercentile(99));
            m.put("p999", h.getValueAtPercentile(99.9));
            m.put("max", h.getMaxValue());
        }
        return m;
    }

    private void write() {
        try {
            JsonFiles.writeAtomically(file, json);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
