package clientbench.harness;

import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Request;
import clientbench.harness.record.IterationSnapshot;
import clientbench.testkit.Iterations;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A server that stalls for 200 ms shows in the latency percentiles the way it does in wrk2: every
 * request scheduled during the stall waits, and the harness records that wait. A closed-loop tool
 * (service time) sees one slow request and hides the rest.
 */
@Timeout(60)
class CoordinatedOmissionTest {

    @Test
    void aStalledServerShowsInLatencyFromIntendedStartButHidesInServiceTime() throws Exception {
        ExecutorService server = Executors.newSingleThreadExecutor(); // one connection: requests queue behind a stall
        AtomicLong n = new AtomicLong();
        AtomicLong answered = new AtomicLong(); // the server's own count, outside the harness
        HttpClientAdapter stalling = new HttpClientAdapter() {
            @Override
            public void send(Request r, Completion c) {
                long i = n.getAndIncrement();
                server.execute(() -> {
                    LockSupport.parkNanos(i == 300 ? 200_000_000L : 100_000L);
                    answered.incrementAndGet();
                    c.complete(Outcome.OK, 200, null);
                });
            }

            @Override
            public void close() {
                server.shutdownNow();
            }

            @Override
            public String name() {
                return "stalling";
            }

            @Override
            public String libraryVersion() {
                return "test";
            }

            @Override
            public Map<String, String> settings() {
                return Map.of();
            }
        };
        Request get = Request.get(URI.create("http://127.0.0.1:1"), "/", 5);
        LoadGenerator g = new LoadGenerator(stalling, get, LoadSpec.open(1_000, 1, LoadSpec.Backpressure.PARK, Duration.ofSeconds(2)));
        IterationSnapshot s = Iterations.run(g, 1_000);
        stalling.close();

        assertEquals(answered.get(), s.ok(), s.summary());
        assertEquals(n.get(), s.sent(), s.summary());
        Histogram latency = s.latency();
        Histogram service = s.service();
        long slowCallers = latency.getTotalCount() - latency.getCountBetweenValues(0, 100_000);
        long slowServices = service.getTotalCount() - service.getCountBetweenValues(0, 100_000);
        // Requests due in the first half of the stall waited >= 100 ms: about 100 of them. A busy machine only
        // makes callers wait longer. Service times: one stalled request, and a busy machine's stalls of 100 ms
        // are rare; a harness that took latency for service time (or the reverse) would show 100 or more.
        assertTrue(slowCallers >= 70, "callers that waited >= 100 ms: " + slowCallers);
        assertTrue(slowServices <= 20, "service times >= 100 ms: " + slowServices);
        assertTrue(latency.getValueAtPercentile(90) > 50_000,
                "latency p90 us " + latency.getValueAtPercentile(90) + " should show the stall");
        assertTrue(service.getValueAtPercentile(90) < 20_000,
                "service p90 us " + service.getValueAtPercentile(90) + " hides it");
    }
}
