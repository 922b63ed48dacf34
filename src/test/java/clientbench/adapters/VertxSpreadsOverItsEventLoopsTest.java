package clientbench.adapters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import clientbench.api.AdapterConfig;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Protocol;
import clientbench.api.Request;
import clientbench.stub.StubExtension;
import clientbench.stub.StubServer;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Vert.x driven from one non-Vert.x thread (as the harness drives it) must still use all its event loops: left to
 * itself it puts every connection on one loop. Proven by the loop threads the responses arrive on (each on its
 * connection's loop) and by the connections the stub saw.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class VertxSpreadsOverItsEventLoopsTest {
    @RegisterExtension
    static final StubExtension fresh = new StubExtension();

    @Test
    void requestsFromOneThreadUseEveryEventLoop() throws Exception {
        int loops = 4;
        int n = 64;
        StubServer stub = fresh.server();
        AdapterConfig config = new AdapterConfig(stub.uri(), Protocol.HTTP1, 16, Duration.ofSeconds(2),
                Duration.ofSeconds(5), loops, false);
        HttpClientAdapter adapter = Adapters.create("vertx", config);
        try {
            Set<String> threads = ConcurrentHashMap.newKeySet();
            Map<Outcome, Integer> outcomes = new ConcurrentHashMap<>();
            CountDownLatch all = new CountDownLatch(n);
            for (int i = 0; i < n; i++) {
                adapter.send(Request.get(stub.uri(), "/?delayMs=50", 5), (outcome, status, cause) -> {
                    threads.add(Thread.currentThread().getName());
                    outcomes.merge(outcome, 1, Integer::sum);
                    all.countDown();
                });
            }
            assertTrue(all.await(20, TimeUnit.SECONDS), all.getCount() + " requests never reported");
            assertEquals(Map.of(Outcome.OK, n), outcomes);
            assertEquals(loops, threads.size(), "responses handled on " + threads);
            assertTrue(threads.stream().allMatch(t -> t.startsWith("vert.x-eventloop-thread-")), threads::toString);
            assertEquals(16, stub.stats().peakOpen(), "connections open at once (limit 16, 4 per loop)");
            assertEquals(String.valueOf(loops), adapter.settings().get("ioThreads"), adapter.settings()::toString);
        } finally {
            adapter.close();
        }
    }
}
