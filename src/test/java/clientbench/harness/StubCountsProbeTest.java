package clientbench.harness;

import clientbench.api.Outcome;
import clientbench.harness.record.IterationSnapshot;
import clientbench.harness.record.Probes;
import clientbench.stub.StubServer;
import clientbench.testkit.Iterations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stub in its own JVM answers the harness's questions, and a trial sets the stub's counts beside its
 * own: requests answered against requests sent, connections accepted, the peak and used in the window.
 */
@Timeout(90)
class StubCountsProbeTest {

    @Test
    void theStubCountsWhatItAnswersBetweenMarks() throws Exception {
        try (StubProcess stub = StubProcess.start(false, (java.util.List<Integer>) null)) {
            StubServer.Stats before = stub.mark();
            assertNotNull(before, "the stub answers 'mark'");
            try (Socket s = new Socket(stub.uri().getHost(), stub.uri().getPort())) {
                for (int i = 0; i < 3; i++) {
                    s.getOutputStream().write("GET /?bytes=5 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    readResponse(s.getInputStream());
                }
                StubServer.Stats after = stub.stats();
                assertEquals(3, after.requests() - before.requests());
                assertEquals(1, after.accepted() - before.accepted());
                assertEquals(1, after.usedConnections());
                assertTrue(after.peakOpen() >= 1, "peak " + after.peakOpen());
                assertTrue(after.cpuNanos() > before.cpuNanos(), "its CPU time moves");
            }
        }
    }

    /** Reads one response with a 5-byte body: the head to its blank line, then 5 bytes. */
    private static void readResponse(InputStream in) throws Exception {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            head.append((char) in.read());
        }
        assertEquals(5, in.readNBytes(5).length);
    }

    @Test
    void aTrialSetsTheStubsCountsBesideItsOwn() throws Exception {
        TrialSpec spec = TrialSpec.parse("jdk", "", "http1", "8", "0", "5", "0",
                LoadSpec.open(300, 16, LoadSpec.Backpressure.PARK, Duration.ofSeconds(6)), null);
        try (Trial trial = Trial.start(spec, false)) {
            for (int i = 0; i < 2; i++) { // the first iteration opens the connections, the second reuses them
                IterationSnapshot s = Iterations.run(trial, 500, -30, false);
                Probes p = s.probes();
                assertEquals(150, s.scheduled(), s.summary());
                assertTrue(s.sent() > 0, s.summary()); // what a busy machine let out: the counts below must agree on it
                assertEquals(s.sent(), s.ok(), s.summary());
                // The stub's own count, outside the harness: every request sent was answered, none twice.
                assertEquals(s.sent(), p.stubRequests(), s.summary());
                assertTrue(p.connectionsPeak() >= 1 && p.connectionsPeak() <= 8, "peak " + p.connectionsPeak());
                assertTrue(p.connectionsUsed() >= 1 && p.connectionsUsed() <= p.connectionsPeak(), "used " + p.connectionsUsed());
                assertTrue(p.connections() >= 1 && p.connections() <= 8, "kernel count " + p.connections());
                assertTrue(p.listenRefused() >= 0, "the kernel's accept-queue counters are read");
                assertTrue(p.stubCpuShare() > 0 && p.stubCpuShare() < 1, "stub cpu " + p.stubCpuShare());
                if (i == 0) {
                    assertTrue(p.connectionsOpened() >= 1, "opened " + p.connectionsOpened());
                }
                assertEquals(0, s.count(Outcome.CONNECT));
            }
        }
    }
}
