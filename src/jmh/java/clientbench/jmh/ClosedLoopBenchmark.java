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
 * The closed model: {@code concurrency} loops, each sending its next request as the last completes. It measures peak
 * throughput ({@code ok}), not what callers wait: a slow server slows the senders too (coordinated omission), so its
 * percentiles are {@code service.*}, never {@code latency.*}; read latency from {@link OpenLoopBenchmark}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = "-XX:+ExitOnOutOfMemoryError")
@Threads(1)
@State(Scope.Benchmark)
public class ClosedLoopBenchmark extends LoadBenchmark {

    /** Every client, as the registry lists them (BenchmarkClientsTest holds the two together). */
    @Param({"ahc", "apache", "jetty", "okhttp", "jdk", "apache-vt", "jetty-vt", "okhttp-vt", "jdk-vt", "reactor",
            "vertx", "helidon"})
    public String client;
    /** Loops, each with one request in flight. */
    @Param("16")
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
    @Param("64")
    public String connections;
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
     * Up to this many seconds before the warm-up iterations, in 1 s windows until the fork is steady: its JIT quiet and
     * its latency p50 no longer moving ({@link LoadBenchmark#settle}); the trial's record says whether it was, and why.
     * How long a cold fork compiles depends on the client and the host: a fixed warm-up either wastes time or ends too
     * soon. 0: none.
     */
    @Param(DEFAULT_SETTLE_SECONDS)
    public String settleSeconds;

    @Setup(Level.Trial)
    public void startTrial(BenchmarkParams params) throws Exception {
        int settleFor = settleSeconds(settleSeconds);
        LoadSpec spec = LoadSpec.closed(TrialSpec.integer("concurrency", concurrency), TrialSpec.DRAIN_TIMEOUT);
        start(params, hlog -> TrialSpec.parse(client, target, protocol, connections, delayMs, bytes, requestBytes,
                spec, hlog).withIoThreads(ioThreads).withRequest(request));
        settle(Double.NaN, settleFor);
    }
}
