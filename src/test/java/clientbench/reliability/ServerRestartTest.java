package clientbench.reliability;

import clientbench.adapters.Adapters;
import clientbench.api.AdapterConfig;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Protocol;
import clientbench.api.Request;
import clientbench.harness.IterationSnapshot;
import clientbench.harness.LoadGenerator;
import clientbench.harness.LoadSpec;
import clientbench.stub.StubOptions;
import clientbench.stub.StubServer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server dies in the middle of an iteration and comes back on the same port: the run finishes,
 * the failures are classified (connect while it is down, reset for the requests it took with it), and
 * ok counts resume: the next iteration is all ok.
 */
@org.junit.jupiter.api.Tag("reliability") // a long test: mvn verify (Failsafe), not mvn package
@Timeout(120)
class ServerRestartTest {

    static List<String> clients() {
        return Adapters.names();
    }

    @ParameterizedTest
    @MethodSource("clients")
    void failuresAreClassifiedAndOkResumesAfterTheServerComesBack(String client) throws Exception {
        AtomicReference<StubServer> stub = new AtomicReference<>(StubServer.start(StubOptions.loopback()));
        int port = stub.get().port();
        ScheduledExecutorService chaos = Executors.newSingleThreadScheduledExecutor();
        AdapterConfig config = new AdapterConfig(stub.get().uri(), Protocol.HTTP1, 64, Duration.ofMillis(500),
                Duration.ofSeconds(2), 0, true);
        Request get = Request.get(stub.get().uri(), "/?delayMs=20", 5);
        try (HttpClientAdapter adapter = Adapters.create(client, config)) {
            LoadGenerator g = new LoadGenerator(adapter, get, LoadSpec.open(200, 64, LoadSpec.Backpressure.PARK,
                    Duration.ofSeconds(3)));
            chaos.schedule(() -> stub.get().close(), 700, TimeUnit.MILLISECONDS);
            chaos.schedule(() -> {
                try {
                    stub.set(StubServer.start(StubOptions.loopback().withPort(port)));
                } catch (Exception e) {
                    throw new IllegalStateException("restart on port " + port, e);
                }
            }, 1_400, TimeUnit.MILLISECONDS);
            IterationSnapshot down = Loops.iteration(g, 3_000);
            IterationSnapshot after = Loops.iteration(g, 1_000);

            assertTrue(down.ok() > 0, down.summary());
            assertTrue(down.count(Outcome.CONNECT) + down.count(Outcome.RESET) > 0, "the outage shows: " + down.summary());
            assertEquals(down.failures(), down.count(Outcome.CONNECT) + down.count(Outcome.RESET) + down.count(Outcome.TIMEOUT),
                    "only connect, reset or timeout: " + down.summary());
            assertTrue(after.sent() >= 150, after.summary());
            assertEquals(after.sent(), after.ok(), "all ok once the server is back: " + after.summary());
        } finally {
            chaos.shutdownNow();
            chaos.awaitTermination(5, TimeUnit.SECONDS);
            stub.get().close();
        }
    }
}
