package clientbench.results;

import clientbench.adapters.Adapters;
import clientbench.api.Outcome;
import clientbench.harness.rule.Flag;
import clientbench.harness.rule.Slo;
import org.openjdk.jmh.results.RunResult;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The facts of one run (shape, client), an entry of summary.json's {@code runs}, computed once so the terminal and the
 * notebook read the same numbers. Net cost is client minus noop of the same shape, NaN without a baseline;
 * {@code sustained} is {@link Slo#DEFAULT}'s verdict; {@code collateralFailures}: failures beyond the injected faults.
 */
record RunFacts(String shape, String client, String benchmark, Map<String, String> params, String latencyMetric,
                double rate, double primary, double ok, double scheduled, double sent, double failures,
                double dropped, double unsent, double expired, double latencyP50, double latencyP99,
                double latencyOkP99, double lagP99, double cpuMicrosPerRequest, double allocatedBytesPerRequest,
                double threadsMax, double netCpuMicrosPerRequest, double netAllocatedBytesPerRequest,
                double netThreads, List<Flag> flags, boolean sustained, String missedBy, Slo.Judgment slo, double injectedFaults,
                double collateralFailures) {

    /**
     * Every fixed-rate and closed-loop run's figures, in run order; {@code runs[i]} describes {@code all[i]}
     * (shape, client, benchmark, params). Capacity searches are not among them: {@link Capacity} reads their probes.
     */
    static List<RunFacts> of(Collection<RunResult> all, List<Map<String, Object>> runs) {
        Map<String, RunResult> baselines = new LinkedHashMap<>();
        Iterator<RunResult> it = all.iterator();
        for (Map<String, Object> meta : runs) {
            RunResult r = it.next();
            if (Adapters.NOOP.equals(meta.get("client"))) {
                baselines.put((String) meta.get("shape"), r);
            }
        }
        List<RunFacts> out = new ArrayList<>();
        it = all.iterator();
        for (Map<String, Object> meta : runs) {
            RunResult r = it.next();
            String client = (String) meta.get("client");
            if (Capacity.BENCHMARK.equals(r.getParams().getBenchmark())) {
                continue;
            }
            RunResult base = Adapters.NOOP.equals(client) ? null : baselines.get((String) meta.get("shape"));
            out.add(of(r, (String) meta.get("shape"), client, base));
        }
        return out;
    }

    static RunFacts of(RunResult r, String shape, String client, RunResult baseline) {
        Map<String, String> params = new LinkedHashMap<>();
        for (String k : r.getParams().getParamsKeys()) {
            params.put(k, r.getParams().getParam(k));
        }
        String benchmark = r.getParams().getBenchmark();
        benchmark = benchmark.substring(benchmark.lastIndexOf('.', benchmark.lastIndexOf('.') - 1) + 1);
        boolean open = r.getParams().getParamsKeys().contains("rate");
        String lat = open ? "latency" : "service";
        double rate = open ? Double.parseDouble(params.get("rate")) : Double.NaN;
        double failures = failures(r);
        double sent = score(r, "n.sent");
        List<Flag> flags = new ArrayList<>();
        for (Flag f : Flag.values()) {
            if (score(r, f.metric()) > 0) {
                flags.add(f);
            }
        }
        Slo.Judgment judged = !open ? null : Slo.DEFAULT.judge(score(r, "n.scheduled"), score(r, "n.ok"),
                score(r, lat + ".p99"), Long.parseLong(params.getOrDefault("delayMs", "0")), flags);
        String missed = judged == null ? "" : judged.words();
        boolean sustained = judged != null && judged.kept();
        double primary = r.getAggregatedResult().getPrimaryResult().getScore();
        return new RunFacts(shape, client, benchmark, params, lat, rate, primary, score(r, "ok"), score(r, "scheduled"),
                sent, failures, score(r, "n.dropped"), score(r, "n.unsent"), score(r, "n.expired"),
                score(r, lat + ".p50"), score(r, lat + ".p99"), score(r, lat + ".ok.p99"), score(r, "lag.p99"),
                score(r, "cpu.per.req"), score(r, "alloc.per.req"), score(r, "threads.max"),
                net(r, baseline, "cpu.per.req"), net(r, baseline, "alloc.per.req"), net(r, baseline, "threads.max"),
                List.copyOf(flags), sustained, missed == null ? "" : missed, judged, score(r, "n.faults.injected"),
                failures - score(r, "n.faults.injected"));
    }

    private static double net(RunResult r, RunResult baseline, String metric) {
        return baseline == null ? Double.NaN : score(r, metric) - score(baseline, metric);
    }

    static double failures(RunResult r) {
        double n = 0;
        for (Outcome o : Outcome.failures()) {
            double v = score(r, "n.fail." + o.label());
            n += Double.isNaN(v) ? 0 : v;
        }
        return n;
    }

    /** A secondary metric's aggregated score, NaN when the run has none. */
    static double score(RunResult r, String label) {
        return SecondaryMetrics.of(r, label);
    }

    /** The short words of the raised flags, or "-". */
    String flagWords() {
        return flags.isEmpty() ? "-" : String.join(",", flags.stream().map(Flag::word).toList());
    }

    /** For summary.json: NaN (unknown) as null, flags by name. */
    Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("shape", shape);
        m.put("client", client);
        m.put("benchmark", benchmark);
        m.put("params", params);
        m.put("latencyMetric", latencyMetric);
        m.put("rate", num(rate));
        m.put("primaryScore", num(primary));
        m.put("okPerSecond", num(ok));
        m.put("scheduledPerSecond", num(scheduled));
        m.put("sent", num(sent));
        m.put("failures", num(failures));
        m.put("dropped", num(dropped));
        m.put("unsent", num(unsent));
        m.put("expired", num(expired));
        m.put("latencyP50Micros", num(latencyP50));
        m.put("latencyP99Micros", num(latencyP99));
        m.put("latencyOkP99Micros", num(latencyOkP99));
        m.put("lagP99Micros", num(lagP99));
        m.put("cpuMicrosPerRequest", num(cpuMicrosPerRequest));
        m.put("allocatedBytesPerRequest", num(allocatedBytesPerRequest));
        m.put("threadsMax", num(threadsMax));
        Map<String, Object> net = new LinkedHashMap<>();
        net.put("cpuMicrosPerRequest", num(netCpuMicrosPerRequest));
        net.put("allocatedBytesPerRequest", num(netAllocatedBytesPerRequest));
        net.put("threads", num(netThreads));
        m.put("netOfNoop", net);
        m.put("flags", flags.stream().map(f -> f.metric()).toList());
        m.put("sustained", sustained);
        m.put("missedBy", missedBy);
        m.put("slo", slo == null ? null : slo.toJson());
        if (!Double.isNaN(injectedFaults)) {
            m.put("injectedFaults", num(injectedFaults));
            m.put("collateralFailures", num(collateralFailures));
        }
        return m;
    }

    private static Double num(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? null : v;
    }
}
