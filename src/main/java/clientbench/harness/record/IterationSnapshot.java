package clientbench.harness.record;

import clientbench.api.Outcome;
import clientbench.harness.probe.CpuPerRequest;
import org.HdrHistogram.Histogram;

/**
 * Everything one iteration measured, after its drain. Exact: scheduled = sent + dropped, sent = ok + failures, requests
 * out at the drain deadline counting as timeouts. Histograms in microseconds; {@code latency}, which verdicts read,
 * runs from the intended start, every outcome, the never-completed at a lower bound (closed model: service time).
 * {@code pacerCpuNanosInWindow}: the sending thread's own CPU (pacing, recording, and the client's work on the caller's
 * thread), within {@code cpuNanosInWindow}.
 */
public record IterationSnapshot(boolean openModel, double offeredRatePerSecond, long windowNanos, long windowStartEpochMillis, long scheduled, long sent, long dropped,
                                long unsent,
                                long[] outcomes, long expiredAtDrain, long duplicates,
                                Histogram latency, Histogram latencyOk, Histogram service, Histogram lag,
                                long inFlightAtClose, long inFlightPeak, long inFlightPeakAfterNanos, long cpuNanosInWindow, long pacerCpuNanosInWindow,
                                long allocatedBytesInWindow,
                                long bodyBytesMin, long bodyBytesMax, Probes probes) {

    public IterationSnapshot withProbes(Probes p) {
        return new IterationSnapshot(openModel, offeredRatePerSecond, windowNanos, windowStartEpochMillis, scheduled, sent, dropped, unsent, outcomes,
                expiredAtDrain, duplicates, latency, latencyOk, service, lag, inFlightAtClose, inFlightPeak,
                inFlightPeakAfterNanos, cpuNanosInWindow, pacerCpuNanosInWindow,
                allocatedBytesInWindow, bodyBytesMin, bodyBytesMax, p);
    }

    /**
     * The client JVM's CPU time in the window less its compilers' and the connection sampler's, per request sent, in
     * µs ({@link CpuPerRequest}).
     */
    public double cpuMicrosPerRequest() {
        return CpuPerRequest.micros(cpuNanosInWindow, probes.compilerCpuNanos(), probes.samplerCpuNanos(), sent);
    }

    /** The pacer thread's own CPU time per request sent, in microseconds (within the JVM's); NaN when unknown. */
    public double pacerCpuMicrosPerRequest() {
        return pacerCpuNanosInWindow < 0 || sent == 0 ? Double.NaN : pacerCpuNanosInWindow / 1e3 / sent;
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
