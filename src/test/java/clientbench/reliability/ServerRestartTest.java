package clientbench.reliability;

import clientbench.adapters.Adapters;
import clientbench.api.AdapterConfig;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Protocol;
import clientbench.api.Request;
import clientbench.harness.record.IterationSnapshot;
import clientbench.harness.LoadGenerator;
import clientbench.harness.LoadSpec;
import clientbench.stub.StubOptions;
import clientbench.stub.StubServer;
import clientbench.testkit.Iterations;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server dies mid-iteration and returns on the same port: the run finishes, failures are classified (connect while
 * down, reset for requests it took, timeout at most), and once it is back all are ok. The 700 ms outage at 300 ms of a
 * 2 s window leaves it only if the chaos thread runs 1 s late (busy: ms); the last iteration waits for the restart.
 */
@org.junit.jupiter.api.Tag("reliability") // a long test: mvn verify (Failsafe), not mvn package
@Timeout(120)
class ServerRestartTest {
    private static final long OUTAGE_MILLIS = 700;

    static List<String> clients() {
        return Adapters.names();
    }

    @Execution(ExecutionMode.CONCURRENT) // each client on a stub of its own; 200 req/s
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
            IterationSnapshot warm = Iterations.run(g, 300);
            assertTrue(warm.ok() > 0 && warm.failures() == 0, "before the outage: " + warm.summary());

            Future<StubServer> restarted = chaos.schedule(() -> {
                stub.get().close();
                Thread.sleep(OUTAGE_MILLIS);
                return StubServer.start(StubOptions.loopback().withPort(port)); // a failure here fails the test below
            }, 300, TimeUnit.MILLISECONDS);
            IterationSnapshot down = Iterations.run(g, 2_000);
            stub.set(restarted.get(10, TimeUnit.SECONDS));
            IterationSnapshot after = Iterations.run(g, 500);

            assertTrue(down.ok() > 0, "the warm client was answered before the outage: " + down.summary());
            assertTrue(down.count(Outcome.CONNECT) > 0, "requests sent while the port was closed were refused: " + down.summary());
            assertEquals(down.failures(), down.count(Outcome.CONNECT) + down.count(Outcome.RESET) + down.count(Outcome.TIMEOUT),
                    "only connect, reset or timeout: " + down.summary());
            assertEquals(100, after.scheduled(), after.summary());
            assertTrue(after.ok() > 0, after.summary());
            assertEquals(after.sent(), after.ok(), "all ok once the server is back: " + after.summary());
        } finally {
            chaos.shutdownNow();
            chaos.awaitTermination(5, TimeUnit.SECONDS);
            stub.get().close();
        }
    }
}
