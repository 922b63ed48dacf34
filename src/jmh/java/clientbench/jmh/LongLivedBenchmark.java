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
 * How many long requests a client holds at once: {@code concurrency} requests, each answered after
 * {@code delayMs}, sent as fast as the client takes them and kept out (a closed loop whose loops wait on
 * the server; a request that fails is replaced at once). Run as a sweep over {@code concurrency} to find
 * where a client fails, up to 15,000 (this machine's per-process limit is 20,000 files, and each request
 * holds a connection).
 *
 * <p>Reports how many it asked for ({@code ll.asked}), how many it held when the window closed
 * ({@code ll.held}), how long opening took ({@code ll.open.ms}: until the count in flight last rose) and
 * why the rest failed ({@code fail.*}); beside them, in the same run, the proof that the stub accepted every
 * connection it was offered: {@code connections.opened} (the stub's count of accepted connections) and
 * {@code listen.overflows} (0: the kernel's accept queue refused none).
 *
 * <p>The window is long enough that "held" is never cut by it: opening 15,000 took up to 12 s on 2 cores
 * (jetty sent 12,722 in a 10 s window), so the window is 30 s, and the delay, 40 s, outlasts it, so that
 * every request sent is still out when it closes (the first, sent at its start, returns 10 s after). A
 * client still opening at the close shows it: {@code ll.open.ms} near 30,000. The iteration then drains
 * the answers, about 40 s after each was sent: about 55 s in all.
 *
 * <p>Expect: {@code ll.held} equal to {@code ll.asked} and no failures while the client copes;
 * {@code heap.per.inflight} and {@code threads.per.inflight} say what each waiting request costs
 * (thread-per-request clients show about one thread each); beyond its limit a client fails with
 * {@code rejected}, {@code connect} or {@code timeout}, which the failure counts name.
 *
 * <p>HOW TO RUN: {@code ./bench jmh LongLivedBenchmark -p client=jdk -p concurrency=1000,4000}
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
