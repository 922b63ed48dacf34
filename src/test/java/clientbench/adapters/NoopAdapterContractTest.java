package clientbench.adapters;

import clientbench.api.AdapterConfig;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Protocol;
import clientbench.api.Request;
import clientbench.testkit.OwnSockets;
import clientbench.testkit.Prerequisites;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code noop} is the baseline every net figure subtracts, so this checks what it cannot count itself: each request
 * ends once, ok 200, on the caller's thread before {@code send} returns; it touches no network (the target accepts
 * nothing, no new socket); close() leaves no thread; its settings say so for every protocol.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a noop that blocks fails, never hangs
class NoopAdapterContractTest {
    private static final int REQUESTS = 1_000;

    @Test
    void everyRequestEndsOnceOkInlineTouchingNoNetworkAndCloseLeavesNoThread() throws Exception {
        try (ServerSocket target = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            URI uri = URI.create("http://127.0.0.1:" + target.getLocalPort());
            AtomicInteger connections = new AtomicInteger();
            Thread acceptor = new Thread(() -> acceptAndCount(target, connections), "noop-target");
            acceptor.setDaemon(true);
            acceptor.start(); // before the baseline: the test's own thread, ended by closing the target
            PlatformThreads threads = PlatformThreads.baseline();
            Set<String> socketsBefore = OwnSockets.inodes();
            Map<Outcome, Integer> outcomes = new EnumMap<>(Outcome.class);
            int[] ends = new int[REQUESTS];
            Thread caller = Thread.currentThread();
            HttpClientAdapter noop = Adapters.create(Adapters.NOOP, AdapterConfig.defaults(uri));
            for (int i = 0; i < REQUESTS; i++) {
                int request = i;
                noop.send(Request.post(uri, "/?bytes=5", new byte[16], 5), (outcome, status, cause) -> {
                    ends[request]++;
                    outcomes.merge(outcome, 1, Integer::sum);
                    assertEquals(200, status);
                    assertEquals(null, cause);
                    assertEquals(caller, Thread.currentThread(), "completed inline, on the caller's thread");
                });
                assertEquals(1, ends[request], "request " + request + " ended once, before send returned");
            }
            noop.close();
            noop.close(); // idempotent, as every adapter's
            assertEquals(Map.of(Outcome.OK, REQUESTS), outcomes);

            assertEquals(0, connections.get(), "connections noop opened to its target");
            Prerequisites.require(OwnSockets.readable(), "the process's sockets are read from /proc/self/fd (Linux)");
            assertEquals(socketsBefore, OwnSockets.inodes(), "sockets opened and left open");
            threads.awaitBackToBaseline(() -> 0, Duration.ofSeconds(5));
        }
    }

    @Test
    void itsSettingsSayItTouchesNoNetworkWhateverTheProtocol() {
        for (Protocol p : Protocol.values()) {
            URI target = URI.create((p.tls() ? "https" : "http") + "://127.0.0.1:9");
            try (HttpClientAdapter noop = Adapters.create(Adapters.NOOP, new AdapterConfig(target, p, 1,
                    AdapterConfig.DEFAULT_CONNECT_TIMEOUT, AdapterConfig.DEFAULT_REQUEST_TIMEOUT, 0, true))) {
                assertEquals(Adapters.NOOP, noop.name());
                assertTrue(noop.libraryVersion().startsWith("clientbench:noop:"), noop.libraryVersion());
                assertEquals(Map.of("network", "none: completes inline"), noop.settings(), p.label());
            }
        }
        assertEquals(null, Adapters.refusal(Adapters.NOOP, "h2"), "noop speaks every protocol: it speaks none");
    }

    private static void acceptAndCount(ServerSocket target, AtomicInteger connections) {
        while (!target.isClosed()) {
            try (Socket ignored = target.accept()) {
                connections.incrementAndGet();
            } catch (IOException closed) {
                return; // the test closed its target
            }
        }
    }
}
