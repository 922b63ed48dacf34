package clientbench.results;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.WorkloadParams;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A shape in rounds makes one JMH run per round of each client, but results.json, results.csv and summary.json keep one
 * entry per (shape, client): once all rounds ran, its runs merge into one, each round a fork, in run order. Trial files
 * need nothing: each records its round.
 */
public final class Rounds {

    private Rounds() {
    }

    /**
     * Merges, in place, the runs of one (shape, client) into the first of them; {@code runs[i]} describes
     * {@code all[i]} before and after, its {@code round} replaced by {@code rounds}, the rounds it holds.
     */
    public static void merge(List<RunResult> all, List<Map<String, Object>> runs) {
        if (all.size() != runs.size()) {
            throw new IllegalArgumentException(all.size() + " results for " + runs.size() + " runs");
        }
        Map<String, Integer> first = new LinkedHashMap<>();
        Map<Integer, List<BenchmarkResult>> forks = new LinkedHashMap<>();
        Map<Integer, List<Object>> rounds = new LinkedHashMap<>();
        List<Integer> drop = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            String key = runs.get(i).get("shape") + "/" + runs.get(i).get("client");
            Integer at = first.putIfAbsent(key, i);
            int into = at == null ? i : at;
            forks.computeIfAbsent(into, k -> new ArrayList<>()).addAll(all.get(i).getBenchmarkResults());
            rounds.computeIfAbsent(into, k -> new ArrayList<>()).add(runs.get(i).get("round"));
            if (at != null) {
                drop.add(i);
            }
        }
        for (Map.Entry<Integer, List<BenchmarkResult>> e : forks.entrySet()) {
            RunResult r = all.get(e.getKey());
            if (e.getValue().size() != r.getBenchmarkResults().size()) {
                all.set(e.getKey(), new RunResult(withForks(r.getParams(), e.getValue().size()), e.getValue()));
            }
            Map<String, Object> described = new LinkedHashMap<>(runs.get(e.getKey()));
            described.remove("round");
            described.put("rounds", rounds.get(e.getKey()));
            runs.set(e.getKey(), described);
        }
        for (int k = drop.size() - 1; k >= 0; k--) {
            int i = drop.get(k);
            all.remove(i);
            runs.remove(i);
        }
    }

    /** {@code p} with {@code forks} forks: JMH's params are immutable, and results.json writes their fork count. */
    static BenchmarkParams withForks(BenchmarkParams p, int forks) {
        WorkloadParams w = new WorkloadParams();
        int order = 0;
        for (String k : p.getParamsKeys()) {
            w.put(k, p.getParam(k), order++);
        }
        return new BenchmarkParams(p.getBenchmark(), p.generatedBenchmark(), p.shouldSynchIterations(), p.getThreads(),
                p.getThreadGroups(), p.getThreadGroupLabels(), forks, p.getWarmupForks(), p.getWarmup(), p.getMeasurement(),
                p.getMode(), w, p.getTimeUnit(), p.getOpsPerInvocation(), p.getJvm(), p.getJvmArgs(), p.getJdkVersion(),
                p.getVmName(), p.getVmVersion(), p.getJmhVersion(), p.getTimeout());
    }
}
