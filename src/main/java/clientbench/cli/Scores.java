package clientbench.cli;

import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/** A JMH result's figures by metric name (the names are API: see HarnessProfiler); NaN when absent. */
final class Scores {

    private Scores() {
    }

    /** The secondary metric {@code label}'s score. */
    static double of(RunResult r, String label) {
        Result<?> res = r.getAggregatedResult().getSecondaryResults().get(label);
        return res == null ? Double.NaN : res.getScore();
    }

    /** The secondary metric {@code label}'s 99.9% error (JMH's); NaN with a single iteration. */
    static double error(RunResult r, String label) {
        Result<?> res = r.getAggregatedResult().getSecondaryResults().get(label);
        return res == null ? Double.NaN : res.getScoreError();
    }
}
