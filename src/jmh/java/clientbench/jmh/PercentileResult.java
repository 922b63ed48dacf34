package clientbench.jmh;

import org.HdrHistogram.Histogram;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.Aggregator;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ResultRole;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.zip.DataFormatException;

/**
 * A latency percentile JMH aggregates correctly: every aggregation (threads, iterations, forks) merges the
 * HdrHistograms it carries and reads the merged one; percentiles are never averaged. The score has no JMH error, being
 * one number; its spread across iterations is in the .hlog files.
 */
public final class PercentileResult extends Result<PercentileResult> {
    private static final long serialVersionUID = 1L;

    /** Use for the maximum. */
    public static final double MAX = 100.0;

    private final double percentile;
    private final byte[] histogram;

    public PercentileResult(String label, double percentile, Histogram h) {
        super(ResultRole.SECONDARY, label, of(valueAt(h, percentile)), "us", AggregationPolicy.AVG);
        this.percentile = percentile;
        this.histogram = encode(h);
    }

    private static double valueAt(Histogram h, double percentile) {
        if (h.getTotalCount() == 0) {
            return Double.NaN;
        }
        return percentile >= MAX ? h.getMaxValue() : h.getValueAtPercentile(percentile);
    }

    private static byte[] encode(Histogram h) {
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(buf);
        byte[] out = new byte[n];
        buf.flip();
        buf.get(out);
        return out;
    }

    Histogram histogram() {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(histogram), 0);
        } catch (DataFormatException e) {
            throw new IllegalStateException("corrupt histogram in result " + label, e);
        }
    }

    @Override
    protected Aggregator<PercentileResult> getThreadAggregator() {
        return PercentileResult::merge;
    }

    @Override
    protected Aggregator<PercentileResult> getIterationAggregator() {
        return PercentileResult::merge;
    }

    private static PercentileResult merge(Collection<PercentileResult> results) {
        Histogram merged = null;
        String label = null;
        double p = 0;
        for (PercentileResult r : results) {
            Histogram h = r.histogram();
            if (merged == null) {
                merged = h;
                label = r.label;
                p = r.percentile;
            } else {
                merged.add(h);
            }
        }
        if (merged == null) {
            throw new IllegalArgumentException("nothing to merge");
        }
        return new PercentileResult(label, p, merged);
    }

    @Override
    public String extendedInfo() {
        Histogram h = histogram();
        return String.format("%s: %d samples, p50 %d us, p99 %d us, max %d us (merged histogram)%n", label,
                h.getTotalCount(), h.getValueAtPercentile(50), h.getValueAtPercentile(99), h.getMaxValue());
    }
}
