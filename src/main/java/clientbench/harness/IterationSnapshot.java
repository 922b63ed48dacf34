package clientbench.harness;

import clientbench.api.Outcome;
import org.HdrHistogram.Histogram;

/**
 * Everything one iteration measured, after its drain. The counts are exact:
 * {@code scheduled = sent + dropped} and {@code sent = ok + failures} (requests still in flight at the
 * drain deadline are among the {@code timeout} failures, as {@link #expiredAtDrain}).
 *
 * <p>Histograms are in microseconds. {@code latency} is from the intended start (what a caller sees,
 * free of coordinated omission); in the closed model there is no intended start, so it equals
 * {@code service} and is labelled service time. {@code lag} is actual send minus intended start.
 *
 * @param windowNanos from the first scheduled request to the end of sending
 * @param unsentAtEnd of the dropped, those that fell due in the window while the pacer was parked
 *                    waiting for a permit and were never sent (open model, park policy)
 * @param outcomes completed requests by {@link Outcome#ordinal()}
 * @param duplicates completions beyond the first for one request: an adapter bug, never counted twice
 * @param inFlightAtEnd requests out when the window closed, before the drain
 * @param connections the client's established connections to the target then; -1 when unknown
 * @param heapBytes heap the client held then beyond its idle baseline, after a GC; -1 when not measured
 * @param threadsAtEnd the JVM's live threads then; -1 when not measured
 */
public record IterationSnapshot(boolean openModel, long windowNanos, long scheduled, long sent, long dropped,
                                long unsentAtEnd,
                                long[] outcomes, long expiredAtDrain, long duplicates,
                                Histogram latency, Histogram service, Histogram lag,
                                long inFlightAtEnd, long connections, long heapBytes, long threadsAtEnd) {

    IterationSnapshot withProbes(long connections, long heapBytes, long threadsAtEnd) {
        return new IterationSnapshot(openModel, windowNanos, scheduled, sent, dropped, unsentAtEnd, outcomes,
                expiredAtDrain, duplicates, latency, service, lag, inFlightAtEnd, connections, heapBytes, threadsAtEnd);
    }

    public long count(Outcome o) {
        return outcomes[o.ordinal()];
    }

    public long ok() {
        return count(Outcome.OK);
    }

    public long failures() {
        long n = 0;
        for (Outcome o : Outcome.failures()) {
            n += count(o);
        }
        return n;
    }

    /** Events per second over the sending window. */
    public double perSecond(long events) {
        return windowNanos <= 0 ? 0 : events * 1e9 / windowNanos;
    }

    /** True when every scheduled request is accounted for exactly once. */
    public boolean balanced() {
        return scheduled == sent + dropped && sent == ok() + failures();
    }

    public String summary() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("scheduled=%d sent=%d dropped=%d ok=%d", scheduled, sent, dropped, ok()));
        for (Outcome o : Outcome.failures()) {
            if (count(o) > 0) {
                sb.append(' ').append(o.label()).append('=').append(count(o));
            }
        }
        if (unsentAtEnd > 0) {
            sb.append(" (").append(unsentAtEnd).append(" of the dropped fell due but were never sent)");
        }
        if (expiredAtDrain > 0) {
            sb.append(" (").append(expiredAtDrain).append(" still in flight at the drain deadline)");
        }
        sb.append(String.format(" window=%.3fs", windowNanos / 1e9));
        return sb.toString();
    }
}
