package clientbench.harness;

/**
 * Why a figure cannot be trusted. Each is a 0/1 secondary metric ({@link #metric()}) in every result,
 * aggregated as a maximum (one flagged iteration flags the result), a short word in the terminal and a
 * line of explanation wherever the figure is shown. A flagged figure never counts against a client; a rate
 * kept despite {@link #GENERATOR}, {@link #LAG}, {@link #STUB} or {@link #STEAL} counts as kept ({@link Slo#LIMITS}).
 */
public enum Flag {
    /**
     * Open model: the client JVM (client, harness, JMH) used at least 90% of the CPUs it may use in the window,
     * so the schedule may not have been kept. Not raised in the closed model, whose loops run the client flat
     * out by design: there the CPU is the limit being measured (and the noop loop's share of it is the baseline).
     */
    GENERATOR("generator", "gen", "the client JVM used >= 90% of its CPUs in the window: the generator may be the limit"),
    /**
     * Open model: schedule lag p99 above 10% of latency p99 and above 1 ms. The floor: a parked pacer wakes
     * 50-150 us late on any Linux machine (timer slack and wake-up), and on a core it shares with the client
     * 0.2-5 ms late at p99 (OpenLoopBenchmark, ahc at 2k req/s, 2 cores), so against sub-millisecond
     * loopback latencies a share alone would flag every iteration. Under 1 ms (a tenth of the SLO's 10 ms)
     * the lag cannot move a verdict by more than a tenth of its margin; the lag stays in every latency figure
     * (from the intended start) and beside it in every table. A rate kept despite the lag counts as kept
     * ({@link Slo#LIMITS}): lag only adds latency.
     */
    LAG("lag", "lag", "lag p99 > 10% of latency p99 and > 1 ms: the pacer's lateness is a visible part of the latency"),
    /** The stub used at least 70% of its CPUs in the window. */
    STUB("stub", "stub", "the stub used >= 70% of its CPUs in the window: the server may be the limit"),
    /**
     * The machine's hypervisor gave at least a tenth of its CPU time in the window to other guests
     * ({@link HostSteal}): the host, not the client, may have been the limit. A client near its knee is bound by
     * CPU, so a tenth less CPU can move its knee by the 10% two runs may differ by. On a 2-core VM of this project,
     * /proc/stat sampled every second through standard's capacity-http1 (17 min): 2 s windows stole a median of
     * 1.0%, 8.7% at the 90th percentile, 10% or more in 8% of them; 25 of the 161 missed probes and 12 of the 175
     * kept ones; in one spell 13-32%, while jetty's search missed 4k and 2.8k req/s that its other fork kept.
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
