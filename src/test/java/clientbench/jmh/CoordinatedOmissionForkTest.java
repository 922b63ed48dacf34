package clientbench.jmh;

import clientbench.testkit.ForkedRuns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.options.TimeValue;

import java.nio.file.Path;

import static clientbench.testkit.ForkedRuns.score;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coordinated omission, through the whole chain (a forked JMH run, the stub, Trial, the profiler, the
 * merged percentiles in the RunResult): a server that takes 20 ms per request on one connection serves
 * 50 req/s; offered 100 req/s, callers queue and their latency from the intended start grows through the
 * window, while each request's service time stays about 20 ms. A closed-loop tool would report 20 ms.
 *
 * <p>The numbers: in a 2 s window the request due at t goes out at about 2t, so it waits about t; those
 * due in the second half are still waiting when the window (and its 200 ms grace) closes and count as
 * unsent, at a lower bound of 0.2-1.2 s. Latency p99 is therefore near 1 s and service p99 near 20 ms;
 * the bounds (p99 > 500 ms, > 5 x service p99, service p99 < 200 ms) leave a factor of 2 or more for a
 * busy machine. One 1 s warm-up iteration opens the connection. Deadline: about 20 s of JVM starts and
 * iterations, 180 s allowed.
 */
@Timeout(180)
class CoordinatedOmissionForkTest {

    @TempDir
    static Path hlogs;

    @Test
    void callersQueueingBehindASlowServerShowInLatencyButNotInServiceTime() throws Exception {
        RunResult r = ForkedRuns.run(ForkedRuns.options(OpenLoopBenchmark.class, hlogs)
                .param("client", "jdk").param("rate", "100").param("delayMs", "20")
                .param("concurrency", "1").param("connections", "1")
                .warmupIterations(1).warmupTime(TimeValue.seconds(1))
                .measurementIterations(1).measurementTime(TimeValue.seconds(2)));

        double latencyP99 = score(r, "latency.p99");
        double serviceP99 = score(r, "service.p99");
        String figures = "latency p99 " + latencyP99 + " us, service p99 " + serviceP99 + " us, ok " + score(r, "n.ok")
                + ", unsent " + score(r, "n.unsent");
        System.out.println("coordinated omission: " + figures);
        assertTrue(serviceP99 < 200_000, "each request is served in about 20 ms: " + figures);
        assertTrue(latencyP99 > 500_000, "callers waited for the server: " + figures);
        assertTrue(latencyP99 > 5 * serviceP99, "latency from the intended start shows the queue: " + figures);
        assertTrue(score(r, "n.unsent") > 0, "the requests the server never reached are counted, not hidden: " + figures);
        assertTrue(score(r, "ok") < 75, "about 50 ok/s, not the offered 100: " + figures);
    }
}
