package clientbench.harness;

import clientbench.harness.record.IterationSnapshot;
import clientbench.jvm.Jdk;
import clientbench.testkit.Iterations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A round's stub, started once and asked by its trials in turn over its control port: each trial's counts are its
 * own window's, checked against the stub's own total, and the stub outlives each trial until its owner ends it.
 */
@Timeout(120)
class RoundStubTest {

    @Test
    void trialsAskTheRoundsStubInTurnEachCountingItsOwnWindow() throws Exception {
        StubProcess round = StubProcess.startShared(false, null, Jdk.current());
        try (round) {
            String described = round.describe();
            long answeredBefore = round.stats().requests();
            long sentByTrials = 0;
            for (String client : List.of("jdk", "okhttp")) {
                TrialSpec spec = TrialSpec.parse(client, "", "http1", "8", "0", "5", "0",
                        LoadSpec.open(300, 16, LoadSpec.Backpressure.PARK, Duration.ofSeconds(6)), null);
                try (Trial trial = Trial.start(spec, false, Map.of(), described)) {
                    assertTrue(trial.settings().get("stub").startsWith("the round's JVM"), trial.settings().get("stub"));
                    assertEquals(round.pid(), trial.stubPid());
                    IterationSnapshot s = Iterations.run(trial, 500, -30, false);
                    assertTrue(s.sent() > 0, s.summary());
                    assertEquals(s.sent(), s.ok(), s.summary());
                    assertEquals(s.sent(), s.probes().stubRequests(), client + ": the window's count is its own");
                    sentByTrials += s.sent();
                }
                assertNotNull(round.stats(), "the stub answers after " + client + "'s trial closed");
            }
            // The stub's own count since its owner's first question: every trial's requests, none twice, no other.
            assertEquals(sentByTrials, round.stats().requests() - answeredBefore);
        }
        assertFalse(ProcessHandle.of(round.pid()).map(ProcessHandle::isAlive).orElse(false), "its owner ended it");
    }

    @Test
    void aTrialStartsItsOwnStubWhenTheRoundsServesTheOtherProtocol() throws Exception {
        try (StubProcess round = StubProcess.startShared(true, null, Jdk.current())) {
            assertNull(StubProcess.shared(round.describe(), false), "a TLS stub for a plain trial");
            assertNull(StubProcess.shared("", false), "none named");
            try (StubProcess asked = StubProcess.shared(round.describe(), true)) {
                assertEquals(round.pid(), asked.pid());
                assertTrue(asked.isShared());
                assertNotNull(asked.mark(), "it answers over the control port");
            }
            assertNotNull(round.stats(), "closing a fork's view leaves the stub running");
        }
    }

    @Test
    void aStubNamedBadlyOrNotAnsweringIsAnErrorNamingIt() throws IOException {
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> StubProcess.shared("http://127.0.0.1:1;2", false));
        assertTrue(bad.getMessage().contains(StubProcess.SHARED), bad.getMessage());
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        IOException silent = assertThrows(IOException.class,
                () -> StubProcess.shared("http://127.0.0.1:1;" + closedPort + ";4242;false;;1", false));
        assertTrue(silent.getMessage().contains("pid 4242"), silent.getMessage());
    }

    @Test
    void aStubWithoutAControlPortCannotBeShared() throws Exception {
        try (StubProcess own = StubProcess.start(false, (List<Integer>) null)) {
            assertThrows(IllegalStateException.class, own::describe);
            assertFalse(own.isShared());
        }
    }
}
