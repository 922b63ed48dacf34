package clientbench.jmh;

import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.Aggregator;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.util.ListStatistics;
import org.openjdk.jmh.util.Statistics;

import java.util.Collection;
import java.util.Iterator;
import java.util.Map;

/**
 * A figure a fork gives once (a knee, the bracket's upper end, convergence): its score is the mean over the forks that
 * gave it, its error over those forks. A {@code ScalarResult} would be averaged with a zero for every iteration lacking
 * it (JMH fills missing secondary results with {@code getZeroResult()}).
 */
public final class PerForkResult extends Result<PerForkResult> {
    private static final long serialVersionUID = 1L;

    public PerForkResult(String label, double value, String unit) {
        this(label, of(value), unit);
    }

    private PerForkResult(String label, Statistics values, String unit) {
        super(ResultRole.SECONDARY, label, values, unit, AggregationPolicy.AVG);
    }

    @Override
    protected Aggregator<PerForkResult> getThreadAggregator() {
        return PerForkResult::pool;
    }

    @Override
    protected Aggregator<PerForkResult> getIterationAggregator() {
        return PerForkResult::pool;
    }

    /** Every value of every result, each fork's once: an iteration without the figure adds nothing. */
    private static PerForkResult pool(Collection<PerForkResult> results) {
        ListStatistics all = new ListStatistics();
        PerForkResult first = null;
        for (PerForkResult r : results) {
            first = first == null ? r : first;
            Iterator<Map.Entry<Double, Long>> raw = r.getStatistics().getRawData();
            while (raw.hasNext()) {
                Map.Entry<Double, Long> e = raw.next();
                for (long i = 0; i < e.getValue(); i++) {
                    all.addValue(e.getKey());
                }
            }
        }
        if (first == null) {
            throw new IllegalArgumentException("nothing to aggregate");
        }
        return new PerForkResult(first.getLabel(), all, first.getScoreUnit());
    }
}
