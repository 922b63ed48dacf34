package clientbench.harness;

/**
 * Why a figure cannot be trusted. Each is a 0/1 secondary metric ({@link #metric()}) in every result,
 * aggregated as a maximum (one flagged iteration flags the result), a short word in the terminal and a
 * line of explanation wherever the figure is shown. A flagged figure never drives a verdict.
 */
public enum Flag {
    /** The client JVM (client, harness, JMH) used at least 90% of the CPUs it may use in the window. */
    GENERATOR("generator", "gen", "the client JVM used >= 90% of its CPUs in the window: the generator may be the limit"),
    /** Open model: schedule lag p99 above 10% of latency p99. */
    LAG("lag", "lag", "lag p99 > 10% of latency p99: the pacer's lateness is a visible part of the latency"),
    /** The stub used at least 70% of its CPUs in the window. */
    STUB("stub", "stub", "the stub used >= 70% of its CPUs in the window: the server may be the limit"),
    /** Measured iterations of one fork differ by more than 20% in ok/s. */
    UNSTEADY("unsteady", "unsteady", "measured iterations differ by > 20% in ok/s: not steady"),
    /** Fewer than 1,000 latency samples in an iteration: its p99 rests on fewer than 10 values. */
    SAMPLES("samples", "samples", "< 1,000 latency samples in an iteration: p99 rests on < 10 values");

    public static final double GENERATOR_CPU_SHARE = 0.90;
    public static final double LAG_SHARE_OF_LATENCY = 0.10;
    public static final double STUB_CPU_SHARE = 0.70;
    public static final double UNSTEADY_SPREAD = 0.20;
    public static final long MIN_SAMPLES = 1_000;

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
        if (s.cpuShare() >= GENERATOR_CPU_SHARE) {
            raised.add(GENERATOR);
        }
        if (s.openModel() && s.lag().getTotalCount() > 0 && s.latency().getTotalCount() > 0
                && s.lag().getValueAtPercentile(99) > LAG_SHARE_OF_LATENCY * s.latency().getValueAtPercentile(99)) {
            raised.add(LAG);
        }
        if (s.latency().getTotalCount() < MIN_SAMPLES) {
            raised.add(SAMPLES);
        }
        if (s.probes().stubCpuShare() >= STUB_CPU_SHARE) {
            raised.add(STUB);
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
