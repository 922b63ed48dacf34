package clientbench.results;

import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * A JMH result's secondary metrics, the harness's figures, by name (the names are API: see HarnessProfiler); NaN when
 * absent.
 */
final class SecondaryMetrics {

    /**
     * Each result's aggregated secondary metrics, made once: JMH merges them anew on every call, which for the
     * percentile metrics decodes every iteration's histograms again for each column of each row of results.csv.
     */
    private static final Map<RunResult, Map<String, Result>> SECONDARY = Collections.synchronizedMap(new WeakHashMap<>());

    private SecondaryMetrics() {
    }

    /** The aggregated secondary metrics of {@code r}, by label (computed once per result). */
    static Map<String, Result> all(RunResult r) {
        return SECONDARY.computeIfAbsent(r, k -> k.getAggregatedResult().getSecondaryResults());
    }

    /** The secondary metric {@code label}'s score. */
    static double of(RunResult r, String label) {
        Result<?> res = all(r).get(label);
        return res == null ? Double.NaN : res.getScore();
    }

    /** One iteration's secondary metric {@code label}: a probe's rate and verdict, a fork's knee, a flag. */
    static double of(IterationResult it, String label) {
        Result<?> res = it.getSecondaryResults().get(label);
        return res == null ? Double.NaN : res.getScore();
    }
}
