package clientbench.jmh;

import clientbench.adapters.Adapters;
import clientbench.harness.CapacitySearch;
import clientbench.harness.rule.Flag;
import clientbench.harness.record.IterationSnapshot;
import clientbench.harness.LoadSpec;
import clientbench.harness.rule.Slo;
import clientbench.harness.TrialSpec;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A client's knee, the highest offered rate that keeps the {@link Slo}, searched in the fork by {@link CapacitySearch}:
 * each measured iteration probes one rate, up a ladder doubling from {@code startRate} (shared, so clients meet at
 * common rates), then bisected to {@code precision}; {@code noop} walks the ladder. Read the knee, not the ok/s score.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 12, time = 3)
@Fork(value = 1, jvmArgsAppend = "-XX:+ExitOnOutOfMemoryError")
@Threads(1)
@State(Scope.Benchmark)
public class CapacityBenchmark extends LoadBenchmark {

    /** Every client, as the registry lists them (BenchmarkClientsTest holds the two together). */
    @Param({"ahc", "apache", "jetty", "okhttp", "jdk", "apache-vt", "jetty-vt", "okhttp-vt", "jdk-vt", "reactor",
            "vertx", "helidon"})
    public String client;
    /** The first rate probed and the base of the ladder (start x 2^k). */
    @Param("1000")
    public String startRate;
    /**
     * Below this the search gives up: the client keeps the SLO at no rate worth measuring. Raised, when the
     * probes are short, to the rate at which a probe collects {@link Flag#MIN_SAMPLES} latencies with 20% to
     * spare (a slower probe could only be flagged {@code samples}, never pass).
     */
    @Param("125")
    public String floorRate;
    /**
     * The warm-up iterations' rate; empty: 8 x {@code startRate}, at most {@code ceilingRate}. At 1k req/s two 3 s
     * warm-ups send 6,000 requests, under C2's Tier4 thresholds, so the first probes would meet a JVM still compiling;
     * at 8k, 48,000 (a slower client runs at its own pace; warm-up is never judged).
     */
    @Param("")
    public String warmupRate;
    /** Above this the search stops: the knee is at least this. */
    @Param("64000")
    public String ceilingRate;
    /** The final bracket's relative width. */
    @Param("0.05")
    public String precision;
    /** The SLO: the least share of scheduled requests that must end ok. */
    @Param("0.999")
    public String sloOkShare;
    /** The SLO: the most latency p99 may add to the server's delay, in milliseconds. */
    @Param("10")
    public String sloP99Ms;
    /** The most requests in flight. */
    @Param("64")
    public String concurrency;
    @Param("0")
    public String delayMs;
    @Param("5")
    public String bytes;
    @Param("http1")
    public String protocol;
    /** Empty: the stub runs in its own JVM for the trial. */
    @Param("")
    public String target;
    /** The connection limit every client gets. */
    @Param("64")
    public String connections;
    /** POST a body of this many bytes; 0 sends GET. */
    @Param("0")
    public String requestBytes;
    /** The client's I/O threads (event loops, selectors); empty: one per CPU the client may use, recorded. */
    @Param("")
    public String ioThreads;
    /**
     * Against a target: a request file (JSON: method, path, headers, bodyFile, expectStatus, insecure; see
     * README), which ./bench writes into the run's folder. Empty: the shape's own request.
     */
    @Param("")
    public String request;
    /**
     * Up to this many seconds before the warm-up iterations, at the start rate, until the fork is steady
     * ({@link LoadBenchmark#settle}): a cold fork compiles for as long as its client and host make it, and a probe
     * missed while it compiles is probed again, spending the budget. Not at the warm-up rate: just above a knee, p50
     * swings with the host. 0: none.
     */
    @Param(DEFAULT_SETTLE_SECONDS)
    public String settleSeconds;

    private CapacitySearch search;
    private Slo slo;
    private long serverDelayMillis;
    private double start;
    private double warmup;
    private double probeRate;
    private int probesSoFar;

    @Setup(Level.Trial)
    public void startTrial(BenchmarkParams params) throws Exception {
        double probeSeconds = params.getMeasurement().getTime().convertTo(TimeUnit.MILLISECONDS) / 1000.0;
        double floor = Math.max(TrialSpec.number("floorRate", floorRate), 1.2 * Flag.MIN_SAMPLES / probeSeconds);
        start = Math.max(TrialSpec.number("startRate", startRate), floor);
        slo = new Slo(TrialSpec.number("sloOkShare", sloOkShare), TrialSpec.number("sloP99Ms", sloP99Ms));
        serverDelayMillis = TrialSpec.integer("delayMs", delayMs);
        double ceiling = TrialSpec.number("ceilingRate", ceilingRate);
        warmup = warmupRate.isBlank() ? Math.min(8 * start, Math.max(start, ceiling)) : TrialSpec.number("warmupRate", warmupRate);
        if (!(warmup > 0)) {
            throw new IllegalArgumentException("warmupRate must be > 0 req/s, was " + warmupRate);
        }
        search = new CapacitySearch(start, floor,
                ceiling, TrialSpec.number("precision", precision),
                params.getMeasurement().getCount());
        LoadSpec spec = LoadSpec.open(start, TrialSpec.integer("concurrency", concurrency), LoadSpec.Backpressure.PARK,
                TrialSpec.DRAIN_TIMEOUT);
        int settleFor = settleSeconds(settleSeconds);
        start(params, hlog -> TrialSpec.parse(client, target, protocol, connections, delayMs, bytes, requestBytes,
                spec, hlog).withIoThreads(ioThreads).withRequest(request));
        settle(start, settleFor);
    }

    @Override
    protected void beforeIteration(boolean measured) {
        if (!measured) {
            probeRate = warmup;
        } else if (Adapters.NOOP.equals(client)) {
            int rungs = (int) Math.floor(Math.log(search.ceiling() / start) / Math.log(2)) + 1;
            probeRate = start * Math.pow(2, probesSoFar++ % rungs);
        } else if (!search.done()) {
            probeRate = search.nextRate();
        } else {
            // Converged with probes to spare: confirm the knee again. A failure here reopens the search.
            probeRate = search.knee() > 0 ? search.knee() : search.bracketHigh();
        }
        generator.rate(probeRate);
    }

    @Override
    protected java.util.Set<String> oncePerFork() {
        return java.util.Set.of("knee", "knee.high", "knee.converged");
    }

    @Override
    protected Map<String, ?> afterIteration(IterationSnapshot s, boolean measured, boolean last) {
        if (!measured) {
            return Map.of();
        }
        Slo.Judgment judged = slo.judge(s, serverDelayMillis, Flag.raisedBy(s));
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("probe.rate", probeRate);
        facts.put("probe.pass", judged.kept() ? 1 : 0);
        facts.put("probe.why", judged.kept() ? "" : judged.words());
        facts.put("slo", judged.toJson());
        if (Adapters.NOOP.equals(client)) {
            // The baseline: no search, no knee; whether the harness alone kept this rung of the ladder.
            return facts;
        }
        if (!judged.kept() && s.probes().jitShare() > JIT_WARMING) {
            search.recordWarmingMiss(probeRate, judged.words()); // the JIT's miss, not the client's: probed again
        } else if (!judged.kept()) {
            search.recordMiss(probeRate, judged); // stands only as the second miss in a row at this rate
        } else {
            search.record(probeRate, true, null);
        }
        if (last) {
            facts.put("knee", search.knee());
            facts.put("knee.high", Double.isInfinite(search.bracketHigh()) ? Double.NaN : search.bracketHigh());
            facts.put("knee.converged", search.converged() ? 1 : 0);
            facts.put("knee.status", search.status().word());
            facts.put("knee.flagsAtBound", List.copyOf(search.flagsAtBound()));
            facts.put("knee.search", search.toString());
        }
        return facts;
    }
}
