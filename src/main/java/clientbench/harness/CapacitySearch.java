package clientbench.harness;

import clientbench.harness.rule.Flag;
import clientbench.harness.rule.Slo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds a client's knee, the highest offered rate that keeps the SLO, to a relative precision: ramp by doubling (one
 * ladder for all, so clients share rates below the weakest knee), bisect at geometric means, then confirm the knee, as
 * shared-machine probes are noisy. Only a repeated miss bounds it ({@link #recordMiss}); the budget bounds the search.
 */
public final class CapacitySearch {

    /**
     * One probe: the rate offered, whether it kept the SLO, and why not. {@code inconclusive}: a miss that moved no
     * bound (the first at its rate, or a warming one); {@code warming}: a miss while the client JVM's JIT still
     * compiled.
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
     * Ramps from {@code startRate}; stops below {@code floorRate} (no rate worth measuring), above {@code ceilingRate}
     * (the harness's own limit, so the knee is at least that), once the bracket is within {@code precision} (relative,
     * e.g. 0.05), or after {@code maxProbes}.
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
     * Records a miss at {@code rate}, flagged or not: the first moves no bound and asks for the rate again; a second in
     * a row there is a failure ({@link #record}). Warming misses between the two neither break the row nor count in it.
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
     * Records a miss while the client JVM's JIT still compiled for much of the window: the warm-up missed, not the
     * client, so it moves no bound however often it recurs, and the rate is probed again until the JIT is quiet (within
     * the budget).
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
     * The flags, other than {@link Slo#SATURATION}, of the misses at the bracket's upper end when none is the client's:
     * what may have stopped the search instead (steal, a busy stub, an unsteady window, too few samples). Empty when
     * either miss there is the client's, or none failed.
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
