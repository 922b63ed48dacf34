package clientbench.harness.rule;

import clientbench.harness.probe.HostSteal;
import clientbench.harness.record.IterationSnapshot;
import clientbench.harness.record.Thresholds;

/**
 * Why a figure cannot be trusted: a 0/1 secondary metric ({@link #metric()}) per result, aggregated as a maximum, a
 * word in the terminal and a line wherever the figure is shown. A flagged figure never counts against a client; a rate
 * kept despite {@link Slo#LIMITS} counts as kept.
 */
public enum Flag {
    /**
     * Open model: the client JVM (client, harness, JMH) used at least 90% of the CPUs it may use in the window,
     * so the schedule may not have been kept. Not raised in the closed model, whose loops run the client flat
     * out by design: there the CPU is the limit being measured (and the noop loop's share of it is the baseline).
     */
    GENERATOR("generator", "gen", "the client JVM used >= 90% of its CPUs in the window: the generator may be the limit"),
    /**
     * Open model: lag p99 above 10% of latency p99 and above 1 ms. The floor, as a parked pacer sharing a core wakes up
     * to milliseconds late, which would flag every sub-millisecond iteration, and under 1 ms (a tenth of the SLO's
     * bound) lag cannot move a verdict much. Lag stays in every latency figure; a rate kept despite it counts as kept.
     */
    LAG("lag", "lag", "lag p99 > 10% of latency p99 and > 1 ms: the pacer's lateness is a visible part of the latency"),
    /** The stub used at least 70% of its CPUs in the window. */
    STUB("stub", "stub", "the stub used >= 70% of its CPUs in the window: the server may be the limit"),
    /**
     * The hypervisor gave at least a tenth of the machine's CPU time in the window to other guests ({@link HostSteal}):
     * the host, not the client, may have been the limit, as a tenth less CPU can move a CPU-bound knee by the 10% two
     * runs may differ by.
     */
    STEAL("steal", "steal", "the host gave >= 10% of the machine's CPU to other guests in the window (steal): the host may be the limit"),
    /** Measured iterations of one fork differ by more than 20% in ok/s. */
    UNSTEADY("unsteady", "unsteady", "measured iterations differ by > 20% in ok/s: not steady"),
    /** Fewer than 1,000 latency samples in an iteration: its p99 rests on fewer than 10 values. */
    SAMPLES("samples", "samples", "< 1,000 latency samples in an iteration: p99 rests on < 10 values");

    public static final double GENERATOR_CPU_SHARE = Thresholds.GENERATOR_CPU_SHARE;
    public static final double LAG_SHARE_OF_LATENCY = Thresholds.LAG_SHARE_OF_LATENCY;
    public static final long LAG_FLOOR_MICROS = Thresholds.LAG_FLOOR_MICROS;
    public static final double STUB_CPU_SHARE = Thresholds.STUB_CPU_SHARE;
    public static final double STEAL_SHARE = Thresholds.STEAL_SHARE;
    public static final double UNSTEADY_SPREAD = Thresholds.UNSTEADY_SPREAD;
    public static final long MIN_SAMPLES = Thresholds.MIN_SAMPLES;

    private final String name;
    private final String word;
    private final String explanation;

    Flag(String name, String word, String explanation) {
        this.name = name;
        this.word = word;
        this.explanation = explanation;
    }

    /**
     * The flags one iteration raises by itself; {@link #UNSTEADY} needs the fork's other iterations and is
     * never among them (see {@link #unsteady}).
     */
    public static java.util.EnumSet<Flag> raisedBy(IterationSnapshot s) {
        java.util.EnumSet<Flag> raised = java.util.EnumSet.noneOf(Flag.class);
        if (s.openModel() && s.cpuShare() >= GENERATOR_CPU_SHARE) {
            raised.add(GENERATOR);
        }
        if (s.openModel() && s.lag().getTotalCount() > 0 && s.latency().getTotalCount() > 0) {
            long lagP99 = s.lag().getValueAtPercentile(99);
            if (lagP99 > LAG_FLOOR_MICROS && lagP99 > LAG_SHARE_OF_LATENCY * s.latency().getValueAtPercentile(99)) {
                raised.add(LAG);
            }
        }
        if (s.latency().getTotalCount() < MIN_SAMPLES) {
            raised.add(SAMPLES);
        }
        if (s.probes().stubCpuShare() >= STUB_CPU_SHARE) {
            raised.add(STUB);
        }
        if (s.probes().stealShare() >= STEAL_SHARE) {
            raised.add(STEAL);
        }
        return raised;
    }

    /** More than {@link #UNSTEADY_SPREAD} between the fastest and the slowest of these ok/s figures. */
    public static boolean unsteady(java.util.Collection<Double> okPerSecond) {
        if (okPerSecond.size() < 2) {
            return false;
        }
        double max = okPerSecond.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        double min = okPerSecond.stream().mapToDouble(Double::doubleValue).min().orElse(0);
        return max > 0 && (max - min) / max > UNSTEADY_SPREAD;
    }

    /** The JMH secondary metric, e.g. {@code flag.generator}: API, the notebook reads it. */
    public String metric() {
        return "flag." + name;
    }

    /** A short word for the terminal's flags column. */
    public String word() {
        return word;
    }

    /** One line saying what raised it and why it matters. */
    public String explanation() {
        return explanation;
    }
}
