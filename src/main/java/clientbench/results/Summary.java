package clientbench.results;

import clientbench.harness.rule.Flag;
import clientbench.harness.rule.Slo;
import clientbench.harness.record.Thresholds;
import org.openjdk.jmh.results.RunResult;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code summary.json}: every run's facts ({@link RunFacts}, {@link Capacity}) and the definitions and thresholds
 * they follow; the report's analysis adds its {@code verdict} (decided once, there) to the same file.
 */
public final class Summary {

    private Summary() {
    }

    /** summary.json: every run's facts, the definitions they follow, and what each flag means. */
    public static Map<String, Object> json(Collection<RunResult> all, List<Map<String, Object>> runs, List<Capacity.Result> capacity) {
        Map<String, Object> m = new LinkedHashMap<>();
        Map<String, Object> definitions = new LinkedHashMap<>();
        definitions.put("slo", Slo.DEFAULT.toJson());
        definitions.put("sustained", "an open-model rate kept: the SLO met (slo), as the knee search decides each probe");
        definitions.put("knee", "per fork (one a round), the highest offered rate kept (the SLO), searched: a ladder x2"
                + " from the start rate, bisection to the precision, a confirming probe; status converged, budget (spent"
                + " before the precision), ceiling, open (no rate failed: a lower bound) or flagged (every miss at the"
                + " bound carried a flag other than gen or lag)");
        definitions.put("netOfNoop", "client - noop of the same shape: cpu.per.req (us per request sent), "
                + "alloc.per.req (bytes per request sent), threads.max");
        definitions.put("thresholds", Thresholds.asMap());
        definitions.put("jitShare", "per iteration (trial JSON probes.jitShare, capacity probes' jitShare): the time the"
                + " client JVM's JIT compilers spent compiling in the window over the window times its CPUs; above 0.1 the"
                + " JVM was still warming up and its CPU and latency figures include compilation");
        definitions.put("gcPauseMillis", "per iteration (trial JSON probes.gcPauseMillis, capacity probes' gcPauseMillis):"
                + " milliseconds the client JVM's collectors paused it in the window (concurrent collector work left out);"
                + " a pause as long as the SLO's latency bound can by itself fail a probe");
        definitions.put("stealShare", "per iteration (trial JSON probes.stealShare, capacity probes' stealShare, the"
                + " host.steal metric): the share of the machine's CPU time its hypervisor gave to other guests in the"
                + " window (/proc/stat's steal over every CPU); the host's slowness, not the client's");
        definitions.put("verdictLatency", "latency.* (every outcome, requests never completed at a lower bound), "
                + "not latency.ok.*");
        Map<String, String> flags = new LinkedHashMap<>();
        for (Flag f : Flag.values()) {
            flags.put(f.metric(), f.explanation());
        }
        definitions.put("flags", flags);
        m.put("definitions", definitions);
        m.put("runs", RunFacts.of(all, runs).stream().map(RunFacts::toJson).toList());
        m.put("capacity", Capacity.toJson(capacity));
        return m;
    }
}
