package clientbench.harness.rule;

import clientbench.harness.record.Thresholds;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * When a fork has warmed up: the warm-up windows' JIT share and latency p50, in turn, judged against thresholds.json's
 * {@code steady} bounds. A window is steady when its JIT compiled under {@code jitShare} of it, the window before it
 * did too, and its p50 moved by at most {@code p50Change} from that window's: the code is compiled and the figure no
 * longer drifts. A fork measured before that, its bound spent, is {@code unsteady}, and the record says why.
 */
public final class Steadiness {

    /** Thresholds.json's defaults for a fork. */
    public static final double JIT_SHARE = Thresholds.STEADY_JIT_SHARE;
    public static final double P50_CHANGE = Thresholds.STEADY_P50_CHANGE;

    private final double jitShare;
    private final double p50Change;
    private final long boundNanos;
    private int windows;
    private long nanos;
    private double lastJit = Double.NaN;
    private double lastP50 = Double.NaN;
    private boolean steady;
    private String why = "no warm-up window ran";

    public Steadiness(long boundNanos) {
        this(JIT_SHARE, P50_CHANGE, boundNanos);
    }

    Steadiness(double jitShare, double p50Change, long boundNanos) {
        if (!(jitShare > 0) || !(p50Change > 0) || boundNanos < 0) {
            throw new IllegalArgumentException("steadiness needs jitShare > 0, p50Change > 0, bound >= 0; was "
                    + jitShare + ", " + p50Change + ", " + boundNanos);
        }
        this.jitShare = jitShare;
        this.p50Change = p50Change;
        this.boundNanos = boundNanos;
    }

    /**
     * Takes the next warm-up window: its length, its JIT share (negative or NaN: not measured, never quiet), latency p50
     * in us (0: no latency)
     * and whether it ran as measured windows run ({@code asMeasured}: false while the compilers had extra CPUs, a
     * window that is neither judged nor compared). Returns true once steady; later windows change nothing.
     */
    public boolean add(long windowNanos, double jit, double p50Micros, boolean asMeasured) {
        if (steady) {
            return true;
        }
        windows++;
        nanos += windowNanos;
        if (!asMeasured) {
            why = "the JIT was still compiling with every CPU lent to it";
            lastJit = jit;
            lastP50 = Double.NaN;
            return false;
        }
        // A share not measured (negative or NaN) is not quiet: the record's "JIT under x%" must have been read.
        boolean quiet = jit >= 0 && jit < jitShare;
        boolean wasQuiet = lastJit >= 0 && lastJit < jitShare;
        double change = p50Micros > 0 && lastP50 > 0 ? Math.abs(p50Micros / lastP50 - 1) : Double.NaN;
        if (!quiet) {
            why = jit >= 0 ? String.format("the JIT compiled for %.0f%% of the last warm-up window (steady: under"
                    + " %.0f%%)", 100 * jit, 100 * jitShare)
                    : "the JIT's share of the last warm-up window was not measured (steady: read, and under "
                    + String.format("%.0f%%)", 100 * jitShare);
        } else if (windows < 2) {
            why = "one warm-up window: too few to see the latency settle";
        } else if (!wasQuiet) {
            why = lastJit >= 0 ? String.format("the JIT compiled for %.0f%% of the window before the last (steady:"
                    + " under %.0f%%)", 100 * lastJit, 100 * jitShare)
                    : "the JIT's share of the window before the last was not measured";
        } else if (!(change <= p50Change)) {
            why = change == change ? String.format("latency p50 moved %.0f%% between the last two warm-up windows"
                    + " (steady: at most %.0f%%)", 100 * change, 100 * p50Change)
                    : p50Micros > 0 && lastP50 != lastP50 ? "one warm-up window since the compilers gave back their"
                    + " lent CPUs: too few to see the latency settle" : "no latency to judge";
        } else {
            steady = true;
            why = String.format("the JIT under %.0f%% of two windows in a row, latency p50 within %.0f%% between them",
                    100 * jitShare, 100 * p50Change);
        }
        lastJit = jit;
        lastP50 = p50Micros;
        return steady;
    }

    public boolean steady() {
        return steady;
    }

    /** True while another window fits in the bound and the fork is not yet steady. */
    public boolean goOn(long nextWindowNanos) {
        return !steady && nanos + nextWindowNanos <= boundNanos;
    }

    /** The trial record's {@code warmup}: steady or not, the windows and seconds it took, the bound, and why. */
    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("steady", steady);
        m.put("windows", windows);
        m.put("seconds", nanos / 1e9);
        m.put("boundSeconds", boundNanos / 1e9);
        m.put("jitShare", jitShare);
        m.put("p50Change", p50Change);
        m.put("why", steady ? why : String.format("not steady within its bound of %.0f s: %s", boundNanos / 1e9, why));
        return m;
    }
}
