package clientbench.jmh;

import clientbench.harness.LoadSpec;
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

import java.util.concurrent.TimeUnit;

/**
 * The open model: requests fall due at a fixed rate whatever the client does, as real callers arrive; with
 * {@code concurrency} out the pacer parks (the wait stays inside latency) or, with {@code backpressure=drop}, drops.
 * Below the knee {@code ok} equals {@code rate}; past it lag and latency grow without bound and {@code unsent} shows.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = "-XX:+ExitOnOutOfMemoryError")
@Threads(1)
@State(Scope.Benchmark)
public class OpenLoopBenchmark extends LoadBenchmark {

    /** Every client, as the registry lists them (BenchmarkClientsTest holds the two together). */
    @Param({"ahc", "apache", "jetty", "okhttp", "jdk", "apache-vt", "jetty-vt", "okhttp-vt", "jdk-vt", "reactor",
            "vertx", "helidon"})
    public String client;
    /** Intended requests per second. */
    @Param("2000")
    public String rate;
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
    @Param("park")
    public String backpressure;
    /** The connection limit every client gets. */
    @Param("64")
    public String connections;
    /** POST a body of this many bytes; 0 sends GET. */
    @Param("0")
    public String requestBytes;

    /** More of the stub's query for every request, e.g. {@code keepAlive=false}: a new connection (and TLS handshake) each. */
    @Param("")
    public String stubQuery;
    /** {@code mix}: in every 100 requests, 2 ask the stub for status 503 and 1 each for reset, close, truncate. */
    @Param("none")
    public String faults;

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
     * The warm-up iterations' rate; empty: {@code rate}. A fork's two cold JVMs, the client's and the stub's, compile
     * for as long as their hot paths take to be called often enough, so a profile can warm up at a higher rate. Requests beyond
     * {@code concurrency} in flight wait; warm-up figures are recorded, never judged.
     */
    @Param("")
    public String warmupRate;
    /**
     * Up to this many seconds before the warm-up iterations, at the warm-up rate, in 1 s windows until the fork is steady: its JIT quiet and
     * its latency p50 no longer moving ({@link LoadBenchmark#settle}); the trial's record says whether it was, and why.
     * How long a cold fork compiles depends on the client and the host: a fixed warm-up either wastes time or ends too
     * soon. 0: none.
     */
    @Param(DEFAULT_SETTLE_SECONDS)
    public String settleSeconds;

    private double measuredRate;
    private double warmup;

    @Setup(Level.Trial)
    public void startTrial(BenchmarkParams params) throws Exception {
        measuredRate = TrialSpec.number("rate", rate);
        warmup = warmupRate.isBlank() ? measuredRate : TrialSpec.number("warmupRate", warmupRate);
        if (!(warmup > 0)) {
            throw new IllegalArgumentException("warmupRate must be > 0 req/s, was " + warmupRate);
        }
        int settleFor = settleSeconds(settleSeconds);
        LoadSpec spec = LoadSpec.open(measuredRate, TrialSpec.integer("concurrency", concurrency),
                LoadSpec.Backpressure.parse(backpressure), TrialSpec.DRAIN_TIMEOUT);
        start(params, hlog -> TrialSpec.parse(client, target, protocol, connections, delayMs, bytes, requestBytes,
                spec, hlog).withIoThreads(ioThreads).withRequest(request).withStub(stubQuery, faults));
        settle(warmup, settleFor);
    }

    @Override
    protected void beforeIteration(boolean measured) {
        generator.rate(measured ? measuredRate : warmup);
    }
}
