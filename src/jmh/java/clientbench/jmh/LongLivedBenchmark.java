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
 * the server). Run as a sweep over {@code concurrency} to find where a client fails, up to 15,000 (this
 * machine's per-process limit is 20,000 files, and each request holds a connection).
 *
 * <p>Expect: {@code inflight.end} equal to {@code concurrency} and no failures while the client copes;
 * {@code heap.per.inflight} and {@code threads.per.inflight} say what each waiting request costs
 * (thread-per-request clients show about one thread each); beyond its limit a client fails with
 * {@code rejected}, {@code connect} or {@code timeout}, which the failure counts name.
 *
 * <p>HOW TO RUN: {@code ./bench jmh LongLivedBenchmark -prof clientbench.jmh.HarnessProfiler -p client=jdk -p concurrency=1000,4000}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1, time = 10)
@Fork(value = 1, jvmArgsAppend = "-XX:+ExitOnOutOfMemoryError")
@Threads(1)
@State(Scope.Benchmark)
public class LongLivedBenchmark extends LoadBenchmark {

    @Param({"ahc", "apache", "jetty", "okhttp", "jdk"})
    public String client;
    /** Requests held at once. */
    @Param({"1000", "4000", "15000"})
    public String concurrency;
    /** Longer than the measured window: every request is still out when it closes. */
    @Param("20000")
    public String delayMs;
    /** Every client's request timeout; must exceed delayMs. */
    @Param("30000")
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

    @Setup(Level.Trial)
    public void startTrial(BenchmarkParams params) throws Exception {
        Duration timeout = Duration.ofMillis(TrialSpec.integer("timeoutMs", timeoutMs));
        if (timeout.toMillis() <= TrialSpec.integer("delayMs", delayMs)) {
            throw new IllegalArgumentException("timeoutMs (" + timeoutMs + ") must exceed delayMs (" + delayMs + ")");
        }
        LoadSpec spec = LoadSpec.closed(TrialSpec.integer("concurrency", concurrency), TrialSpec.drainFor(timeout));
        load.start(params, hlog -> TrialSpec.parse(client, target, protocol, connections, delayMs, bytes, "0", spec, hlog)
                .withLongLived(timeout).withIoThreads(ioThreads));
    }
}
