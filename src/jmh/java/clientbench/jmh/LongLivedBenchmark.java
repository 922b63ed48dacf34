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

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * How many long requests a client holds at once: {@code concurrency} requests answered after {@code delayMs}, kept out
 * (a failed one replaced), swept up to 15,000 to find where it fails. Opening them all must fit well inside the 30 s
 * window, so that it never cuts "held", and the 40 s delay outlasts it; a client still opening shows ll.open.ms near 30,000.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1, time = 30)
@Fork(value = 1, jvmArgsAppend = "-XX:+ExitOnOutOfMemoryError")
@Threads(1)
@State(Scope.Benchmark)
public class LongLivedBenchmark extends LoadBenchmark {

    /** Every client, as the registry lists them (BenchmarkClientsTest holds the two together). */
    @Param({"ahc", "apache", "jetty", "okhttp", "jdk", "apache-vt", "jetty-vt", "okhttp-vt", "jdk-vt", "reactor",
            "vertx", "helidon"})
    public String client;
    /** Requests held at once. */
    @Param({"1000", "4000", "15000"})
    public String concurrency;
    /** Longer than the measured window: every request is still out when it closes. */
    @Param("40000")
    public String delayMs;
    /** Every client's request timeout; must exceed delayMs. */
    @Param("50000")
    public String timeoutMs;
    @Param("5")
    public String bytes;
    @Param("http1")
    public String protocol;
    @Param("")
    public String target;
    /** The connection limit: as many as requests, so that a client can hold them all. */
    @Param("15000")
    public String connections;

    /** The client's I/O threads (event loops, selectors); empty: one per CPU the client may use, recorded. */
    @Param("")
    public String ioThreads;
    /**
     * Against a target: a request file (JSON: method, path, headers, bodyFile, expectStatus, insecure; see
     * README), which ./bench writes into the run's folder. Empty: the shape's own request.
     */
    @Param("")
    public String request;

    @Setup(Level.Trial)
    public void startTrial(BenchmarkParams params) throws Exception {
        Duration timeout = Duration.ofMillis(TrialSpec.integer("timeoutMs", timeoutMs));
        if (timeout.toMillis() <= TrialSpec.integer("delayMs", delayMs)) {
            throw new IllegalArgumentException("timeoutMs (" + timeoutMs + ") must exceed delayMs (" + delayMs + ")");
        }
        LoadSpec spec = LoadSpec.closed(TrialSpec.integer("concurrency", concurrency), TrialSpec.drainFor(timeout));
        start(params, hlog -> TrialSpec.parse(client, target, protocol, connections, delayMs, bytes, "0", spec, hlog)
                .withLongLived(timeout).withIoThreads(ioThreads).withRequest(request));
    }
}
