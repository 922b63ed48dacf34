package clientbench.harness;

import clientbench.api.Outcome;
import clientbench.harness.record.IterationSnapshot;
import clientbench.testkit.Iterations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.ServerSocket;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad load parameters fail with a clear error before any request; an unreachable target does not fail
 * the run: every request is counted, as {@code connect}.
 */
@Timeout(60)
class BadInputTest {

    private static final Duration DRAIN = Duration.ofSeconds(1);

    private static TrialSpec spec(String client, String target, String protocol, LoadSpec load) {
        return TrialSpec.parse(client, target, protocol, "8", "0", "5", "0", load, null);
    }

    @Test
    void nonPositiveRateIsRejected() {
        for (double rate : new double[] {0, -5, Double.NaN}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> LoadSpec.open(rate, 8, LoadSpec.Backpressure.PARK, DRAIN));
            assertTrue(e.getMessage().startsWith("rate must be > 0"), e.getMessage());
        }
    }

    @Test
    void nonPositiveConcurrencyIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LoadSpec.open(100, 0, LoadSpec.Backpressure.PARK, DRAIN));
        assertTrue(e.getMessage().startsWith("concurrency must be > 0"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LoadSpec.closed(-1, DRAIN));
    }

    @Test
    void unknownClientListsTheValidNames() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> spec("curl", "", "http1", LoadSpec.closed(1, DRAIN)));
        assertTrue(e.getMessage().contains("unknown client 'curl'") && e.getMessage().contains("okhttp"), e.getMessage());
    }

    @Test
    void unknownProtocolListsTheValidNames() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> spec("jdk", "", "http3", LoadSpec.closed(1, DRAIN)));
        assertTrue(e.getMessage().contains("unknown protocol 'http3'") && e.getMessage().contains("h2c"), e.getMessage());
    }

    @Test
    void unknownBackpressurePolicyListsTheValidNames() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LoadSpec.Backpressure.parse("queue"));
        assertTrue(e.getMessage().contains("park") && e.getMessage().contains("drop"), e.getMessage());
    }

    @Test
    void nonNumericParameterIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TrialSpec.parse("jdk", "", "http1", "many", "0", "5", "0", LoadSpec.closed(1, DRAIN), null));
        assertTrue(e.getMessage().startsWith("connections must be an integer"), e.getMessage());
    }

    @Test
    void unreachableTargetCompletesTheRunWithEveryRequestAConnectFailure() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        TrialSpec spec = spec("jdk", "http://127.0.0.1:" + closedPort, "http1",
                LoadSpec.open(200, 16, LoadSpec.Backpressure.PARK, DRAIN));
        try (Trial trial = Trial.start(spec, false)) {
            IterationSnapshot s = Iterations.run(trial, 500, 0, true);
            assertEquals(100, s.scheduled(), s.summary());
            assertTrue(s.sent() > 0, s.summary()); // as many as a busy machine let out; each must fail as connect
            assertEquals(s.sent(), s.count(Outcome.CONNECT), s.summary());
        }
    }
}
