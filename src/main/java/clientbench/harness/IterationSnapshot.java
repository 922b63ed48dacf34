package clientbench.harness;

import clientbench.api.Outcome;
import org.HdrHistogram.Histogram;

/**
 * Everything one iteration measured, after its drain. The counts are exact:
 * {@code scheduled = sent + dropped} and {@code sent = ok + failures} (requests still in flight at the
 * drain deadline are among the {@code timeout} failures, as {@link #expiredAtDrain}). Both hold by
 * construction; what the generator checks before it returns one (and throws if not) is that its
 * independent counts agree: outcomes counted against completions admitted, requests found still out
 * against requests sent and never admitted.
 *
 * <p>Histograms are in microseconds. {@code latency} is from the intended start (what a caller sees,
 * free of coordinated omission), every outcome, and for each request that never completed (unsent, or
 * still out at the drain deadline) a lower bound, so that the longest waits are in its tail: verdicts
 * read it. {@code latencyOk} is successes only. In the closed model there is no intended start: latency
 * is service time and labelled so. {@code lag} is actual send minus intended start.
 *
 * @param offeredRatePerSecond open model: the iteration's offered rate (it may change between iterations,
 *                             see {@link LoadGenerator#rate}); NaN in the closed model
 * @param windowNanos the measured window's length: the iteration time, exactly (0 when nothing was sent)
 * @param windowStartEpochMillis the window's first send, wall-clock (for the histogram log)
 * @param scheduled open model: the requests due in the window; closed model: the requests sent
 * @param dropped never sent: refused at the concurrency limit (drop policy) or {@code unsent}
 * @param unsent of the dropped, those that fell due in the window and had not gone out by the window's
 *               end plus the late-send grace (the pacer was behind: parked for a permit, or late)
 * @param outcomes completed requests by {@link Outcome#ordinal()}
 * @param duplicates completions beyond the first for one request: an adapter bug, never counted twice
 * @param inFlightAtClose requests out when the window closed, before the drain
 * @param inFlightPeak the most requests out at once in the window (counted at each send)
 * @param inFlightPeakAfterNanos when, from the window's first send, that count was last raised: how long
 *                               opening took (long-lived shapes: until the target was held or stopped rising)
 * @param cpuNanosInWindow the client JVM's CPU time (every thread: client, harness, JMH) from the window's
 *                         first send to its close; -1 when unknown
 * @param allocatedBytesInWindow bytes its threads allocated in that time; -1 when unknown
 * @param bodyBytesMin the shortest response body a client reported reading (-1: none reported)
 * @param bodyBytesMax the longest (-1: none reported)
 * @param probes what the trial measured around the iteration ({@link Probes#NONE} from a bare generator)
 */
public record IterationSnapshot(boolean openModel, double offeredRatePerSecond, long windowNanos, long windowStartEpochMillis, long scheduled, long sent, long dropped,
                                long unsent,
                                long[] outcomes, long expiredAtDrain, long duplicates,
                                Histogram latency, Histogram latencyOk, Histogram service, Histogram lag,
                                long inFlightAtClose, long inFlightPeak, long inFlightPeakAfterNanos, long cpuNanosInWindow, long allocatedBytesInWindow,
                                long bodyBytesMin, long bodyBytesMax, Probes probes) {

    IterationSnapshot withProbes(Probes p) {
        return new IterationSnapshot(openModel, offeredRatePerSecond, windowNanos, windowStartEpochMillis, scheduled, sent, dropped, unsent, outcomes,
                expiredAtDrain, duplicates, latency, latencyOk, service, lag, inFlightAtClose, inFlightPeak,
                inFlightPeakAfterNanos, cpuNanosInWindow,
                allocatedBytesInWindow, bodyBytesMin, bodyBytesMax, p);
    }

    /** The client JVM's CPU time in the window per request sent, in microseconds; NaN when unknown. */
    public double cpuMicrosPerRequest() {
        return cpuNanosInWindow < 0 || sent == 0 ? Double.NaN : cpuNanosInWindow / 1e3 / sent;
    }

    /** The share of the CPUs the client JVM may use that it used in the window (0-1); NaN when unknown. */
    public double cpuShare() {
        return cpuNanosInWindow < 0 || windowNanos <= 0 || probes.jvmCpus() <= 0 ? Double.NaN
                : (double) cpuNanosInWindow / windowNanos / probes.jvmCpus();
    }

    /** Bytes allocated in the window per request sent; NaN when unknown. */
    public double allocatedBytesPerRequest() {
        return allocatedBytesInWindow < 0 || sent == 0 ? Double.NaN : (double) allocatedBytesInWindow / sent;
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

    /** Events per second over the measured window. */
    public double perSecond(long events) {
        return windowNanos <= 0 ? 0 : events * 1e9 / windowNanos;
    }

    public String summary() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("scheduled=%d sent=%d dropped=%d ok=%d", scheduled, sent, dropped, ok()));
        for (Outcome o : Outcome.failures()) {
            if (count(o) > 0) {
                sb.append(' ').append(o.label()).append('=').append(count(o));
            }
        }
        if (unsent > 0) {
            sb.append(" (").append(unsent).append(" of the dropped fell due but were never sent)");
        }
        if (expiredAtDrain > 0) {
            sb.append(" (").append(expiredAtDrain).append(" still in flight at the drain deadline)");
        }
        sb.append(String.format(" window=%.3fs", windowNanos / 1e9));
        return sb.toString();
    }
}
