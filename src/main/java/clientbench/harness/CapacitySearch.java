package clientbench.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds a client's knee: the highest offered rate at which it keeps the SLO, to within a relative
 * precision, from a sequence of pass/fail probes at rates this class chooses.
 *
 * <p>Method, and why:
 * <ol>
 *   <li><b>Ramp</b> by doubling from the start rate until a probe fails (or halving until one passes, when
 *       the start rate already fails). Every client walks the same ladder of rates ({@code start × 2^k}), so
 *       below the weakest client's knee all of them are measured at the same rates: the common rates at
 *       which their latency spectra can be compared.</li>
 *   <li><b>Bisect</b> between the highest passing and the lowest failing rate, at their geometric mean (rates
 *       span decades; the precision is relative), until {@code failing / passing ≤ 1 + precision}. From a
 *       factor of 2 to 5% that takes four probes.</li>
 *   <li><b>Confirm</b> the knee with one more probe at it. Probes on a shared machine are noisy and bisection
 *       trusts every answer; a knee that fails its confirmation was luck, so the bracket moves below it
 *       and the search goes on. A rate that has failed is never called the knee, even if it passed once.</li>
 * </ol>
 * A miss is confirmed before it bounds the search ({@link #recordMiss}): the first at a rate moves no bound and the
 * same rate is probed again; only a second miss at that rate in a row stands as a failure (the budget stays
 * bounded), so one transient can no longer cap a knee. Most misses carry a validity flag the harness cannot vouch
 * for (the client JVM's CPUs full, the pacer late, the stub busy, the host's steal; the first three typically in
 * the first probe after warm-up while the JITs of both JVMs still run); an unflagged one can be a transient too
 * (a p99 of 10.015 ms from one 25 ms stall, no GC, no JIT). A miss while the client JVM's JIT still compiled ({@link #recordWarmingMiss})
 * never stands, nor does it count as the first of those two: a warming miss and then one other miss at a rate
 * leave that rate to be probed again.
 *
 * <p>The result assumes that passing is monotone in the rate apart from noise near the knee, which is what
 * an open-model load past a client's capacity does: queues grow without bound. The probe budget bounds
 * the search; a search cut short by it reports its bracket as it stands, wider than the precision.
 */
public final class CapacitySearch {

    /**
     * One probe: the rate offered, whether it kept the SLO, and why not.
     *
     * @param inconclusive a miss that moved no bound (probed again): the first at its rate, or a warming one
     * @param warming a miss while the client JVM's JIT still compiled ({@link #recordWarmingMiss})
     */
    public record Probe(double rate, boolean pass, String why, boolean inconclusive, boolean warming, boolean clients,
                        List<String> flags) {
    }

    /** How a search ended, as the decision reads it. */
    public enum Status {
        /** The bracket within the precision and its lower end confirmed. */
        CONVERGED,
        /** The probe budget ran out first: the knee lies in the wider bracket [knee, bracketHigh). */
        BUDGET,
        /** The ceiling was kept: the knee is at least the ceiling. */
        CEILING,
        /** No rate failed before the budget ran out, below the ceiling: the knee is a lower bound only. */
        OPEN,
        /** Every miss at the bracket's upper end carried a flag other than saturation's: not the client's bound. */
        FLAGGED;

        public String word() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final double start;
    private final double floor;
    private final double ceiling;
    private final double precision;
    private final int maxProbes;
    private final List<Probe> probes = new ArrayList<>();
    /** Highest rate that passed every time it was probed; 0 while none has. */
    private double low;
    /** Lowest rate that failed; +infinity while none has. */
    private double high = Double.POSITIVE_INFINITY;
    private boolean confirmed;
    /** The rate to probe again after an inconclusive miss; NaN when none is due. */
    private double retry = Double.NaN;

    /**
     * @param startRate the first rate probed, the base of the ladder
     * @param floorRate below this the search stops: the client keeps the SLO at no rate worth measuring
     * @param ceilingRate above this the search stops: the knee is at least this (the harness's own limit)
     * @param precision the relative width of the final bracket, e.g. 0.05
     * @param maxProbes the probe budget
     */
    public CapacitySearch(double startRate, double floorRate, double ceilingRate, double precision, int maxProbes) {
        if (!(floorRate > 0 && floorRate <= startRate && startRate <= ceilingRate)) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "need 0 < floor <= start <= ceiling, was %.0f, %.0f, %.0f", floorRate, startRate, ceilingRate));
        }
        if (!(precision > 0 && precision < 1)) {
            throw new IllegalArgumentException("precision must be between 0 and 1, was " + precision);
        }
        if (maxProbes < 1) {
            throw new IllegalArgumentException("maxProbes must be >= 1, was " + maxProbes);
        }
        this.start = startRate;
        this.floor = floorRate;
        this.ceiling = ceilingRate;
        this.precision = precision;
        this.maxProbes = maxProbes;
    }

    /** The rate of the next probe; NaN once the search is done. */
    public double nextRate() {
        if (done()) {
            return Double.NaN;
        }
        if (probes.isEmpty()) {
            return start;
        }
        if (!Double.isNaN(retry)) {
            return retry;
        }
        if (Double.isInfinite(high)) {
            return Math.min(ceiling, low * 2); // ramp up
        }
        if (low == 0) {
            return Math.max(floor, high / 2); // ramp down, to the floor at the lowest
        }
        if (high / low > 1 + precision) {
            return Math.sqrt(low * high); // bisect
        }
        return low; // confirm
    }

    /** Records the outcome of a probe at {@code rate} (normally the last {@link #nextRate()}). */
    public void record(double rate, boolean pass, String why) {
        record(rate, pass, why, !pass, List.of());
    }

    private void record(double rate, boolean pass, String why, boolean clients, List<String> flags) {
        retry = Double.NaN;
        probes.add(new Probe(rate, pass, pass ? "" : why, false, false, clients, flags));
        if (pass) {
            if (rate < high && !failedAt(rate)) {
                if (rate == low && high / low <= 1 + precision) {
                    confirmed = true;
                }
                low = Math.max(low, rate);
            }
        } else {
            high = Math.min(high, rate);
            confirmed = false;
            if (low >= high) {
                // A rate that passed before has now failed: it was noise. The knee is below the highest
                // rate that passed and never failed, which is no longer known: ramp down from here.
                low = highestCleanPassBelow(high);
            }
        }
    }

    /**
     * Records a miss at {@code rate}, flagged or not: the first one moves no bound and asks for the same rate again;
     * a second in a row at that rate is recorded as a failure ({@link #record}). Warming misses at the same rate
     * between the two neither break the row nor count in it: a warming miss and one flagged miss (a GC pause) are
     * not two misses of the client's.
     */
    public void recordMiss(double rate, String why) {
        recordMiss(rate, why, true, List.of());
    }

    /** As {@link #recordMiss(double, String)}, for a judged probe: its flags say whose miss it was at the bound. */
    public void recordMiss(double rate, Slo.Judgment j) {
        recordMiss(rate, j.words(), j.clients(), j.flags().stream().map(Flag::word).toList());
    }

    private void recordMiss(double rate, String why, boolean clients, List<String> flags) {
        for (int i = probes.size() - 1; i >= 0; i--) {
            Probe p = probes.get(i);
            if (p.rate() != rate) {
                break;
            }
            if (!p.warming()) {
                if (p.inconclusive()) {
                    record(rate, false, why, clients, flags);
                    return;
                }
                break;
            }
        }
        probes.add(new Probe(rate, false, why, true, false, clients, flags));
        retry = rate;
    }

    /**
     * Records a miss at {@code rate} while the client JVM's JIT still compiled for much of the window: the warm-up
     * missed, not the client, so the miss moves no bound however often it recurs, and the same rate is probed
     * again until the JIT is quiet (the probe budget bounds it). Two flagged misses in a row at 4k and 8k req/s
     * with the JIT at 95-105% of the window capped the JDK client's knee below 8k in three standard runs.
     */
    public void recordWarmingMiss(double rate, String why) {
        probes.add(new Probe(rate, false, why, true, true, false, List.of()));
        retry = rate;
    }

    /** True when the bracket is narrow and its lower end confirmed, or a limit was reached. */
    public boolean done() {
        if (probes.size() >= maxProbes) {
            return true;
        }
        if (low >= ceiling && !Double.isInfinite(low)) {
            return true; // the knee is at least the ceiling
        }
        if (low == 0 && high <= floor) {
            return true; // fails even at the floor
        }
        return confirmed;
    }

    /** The knee: the highest rate that passed and never failed (0 when none did). */
    public double knee() {
        return low;
    }

    /** The lowest rate that failed (+infinity when none did): the knee lies in [knee, bracketHigh). */
    public double bracketHigh() {
        return high;
    }

    /** True when the bracket is within the precision and its lower end passed twice. */
    public boolean converged() {
        return confirmed;
    }

    /**
     * The flags, other than saturation's ({@link Slo#SATURATION}), of the misses at the bracket's upper end when none
     * of them is the client's: what may have stopped the search instead of the client (the host's steal, a busy stub,
     * an unsteady window, too few samples). Empty when a miss there is the client's or none failed. Its two misses
     * (the first and the one that confirmed it) are both read: either being the client's makes the bound the client's.
     */
    public Set<String> flagsAtBound() {
        Set<String> words = new TreeSet<>();
        for (Probe p : probes) {
            if (p.pass() || p.warming() || p.rate() != high) {
                continue;
            }
            if (p.clients()) {
                return Set.of();
            }
            p.flags().stream().filter(f -> SATURATION_WORDS.stream().noneMatch(f::equals)).forEach(words::add);
        }
        return words;
    }

    /** How the search ended ({@link Status}). */
    public Status status() {
        if (low >= ceiling) {
            return Status.CEILING;
        }
        if (Double.isInfinite(high)) {
            return Status.OPEN;
        }
        if (!flagsAtBound().isEmpty()) {
            return Status.FLAGGED;
        }
        return confirmed ? Status.CONVERGED : Status.BUDGET;
    }

    private static final List<String> SATURATION_WORDS = Slo.SATURATION.stream().map(Flag::word).toList();

    public List<Probe> probes() {
        return List.copyOf(probes);
    }

    /** The highest rate the search probes. */
    public double ceiling() {
        return ceiling;
    }

    /** The rates of the ladder this search walks: {@code start × 2^k} within [floor, ceiling]. */
    public boolean onLadder(double rate) {
        double k = Math.log(rate / start) / Math.log(2);
        return Math.abs(k - Math.rint(k)) < 1e-9 && rate >= floor && rate <= ceiling;
    }

    private boolean failedAt(double rate) {
        for (Probe p : probes) {
            if (!p.pass && !p.inconclusive && p.rate <= rate) {
                return true;
            }
        }
        return false;
    }

    private double highestCleanPassBelow(double limit) {
        double best = 0;
        for (Probe p : probes) {
            if (p.pass && p.rate < limit && !failedAt(p.rate)) {
                best = Math.max(best, p.rate);
            }
        }
        return best;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "knee %.0f req/s, bracket [%.0f, %s), %d probes%s", low, low,
                Double.isInfinite(high) ? "none failed" : String.format(Locale.ROOT, "%.0f", high), probes.size(),
                confirmed ? ", confirmed" : done() ? ", budget spent" : "");
    }
}
