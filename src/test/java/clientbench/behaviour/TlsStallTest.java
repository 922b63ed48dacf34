package clientbench.behaviour;

import clientbench.api.AdapterConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real clients against held-up handshakes, set beside what the front saw: every request's ClientHello reached it and no
 * request reached the stub, so each ending is the handshake's. OkHttp's callTimeout is total and ends every request
 * both ways; the classic Apache client bounds each read of the handshake by the connect timeout: the stall ends, the
 * trickle (its bytes counted by the front, a read every 400 ms) never does. The two figures each way is marked on,
 * {@code ended} and {@code lateMsMax}, follow by hand: a total 1 s timeout ends all 5, each 1 s or more after its send; a
 * per-read one of 2 s ends the stall 1 s or more past the request's timeout, and no trickle: none ended, no lateness.
 */
@Timeout(60)
class TlsStallTest {

    @Test
    void aPerReadHandshakeTimeoutNeverEndsTheTrickleWhileATotalTimeoutEndsBoth() throws Exception {
        Future<CaseResult> okhttp;
        Future<CaseResult> apache;
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            okhttp = threads.submit(() -> BehaviourProbe.one("okhttp", 1, new TlsStall()));
            apache = threads.submit(() -> BehaviourProbe.one("apache-vt", 1, new TlsStall()));
        }
        CaseResult total = okhttp.get();
        CaseResult perRead = apache.get();
        int n = TlsStall.REQUESTS;
        assertAll(total + "\n" + perRead,
                () -> assertNull(total.failure()),
                () -> assertNull(perRead.failure()),
                () -> assertEquals("library-timeout", total.tuning()),
                () -> reachedEveryWay(total),
                () -> reachedEveryWay(perRead),
                () -> assertEquals(Map.of("timeout", n), way(total, "stall").get("outcomes")),
                () -> assertEquals(Map.of("timeout", n), way(total, "trickle").get("outcomes")),
                () -> stallEndsAsAConnectTimeout(way(perRead, "stall")),
                () -> assertEquals(Map.of("unreported", n), way(perRead, "trickle").get("outcomes")),
                () -> assertTrue(number(way(perRead, "trickle"), "bytesTrickled") >= 2L * n,
                        "each connection was sent bytes through the wait: " + way(perRead, "trickle")),
                () -> everyOneEndedPastItsTimeout(way(total, "stall")),
                () -> everyOneEndedPastItsTimeout(way(total, "trickle")),
                () -> noneEnded(way(perRead, "trickle")));
    }

    private static void everyOneEndedPastItsTimeout(Map<String, Object> way) {
        assertEquals(TlsStall.REQUESTS, number(way, "ended"), "ended: " + way);
        assertLate(way, 0);
    }

    private static void noneEnded(Map<String, Object> trickle) {
        assertEquals(0, number(trickle, "ended"), "a trickle no timeout ended is not ended: " + trickle);
        assertNull(trickle.get("lateMsMax"), "nothing ended, so no lateness: " + trickle);
        assertNull(trickle.get("lateMsP50"), "nothing ended, so no lateness: " + trickle);
    }

    /** The median and the latest ending past the timeout, each at least {@code leastMs} (no upper bound: a busy machine). */
    private static void assertLate(Map<String, Object> way, long leastMs) {
        double p50 = ((Number) way.get("lateMsP50")).doubleValue();
        double max = ((Number) way.get("lateMsMax")).doubleValue();
        assertTrue(leastMs <= p50 && p50 <= max, "late p50 " + p50 + ", max " + max + " ms; at least " + leastMs + ": " + way);
    }

    /**
     * The classic client's handshake read times out at the 2 s connect timeout, 1 s inside the wait: on a busy machine
     * a request may still be waiting at its end, but every one that ended did so, 1 s or more late, and at least one.
     */
    private static void stallEndsAsAConnectTimeout(Map<String, Object> stall) {
        @SuppressWarnings("unchecked")
        Map<String, Integer> outcomes = (Map<String, Integer>) stall.get("outcomes");
        int connect = outcomes.getOrDefault("connect", 0);
        assertTrue(connect >= 1, "its handshake's read timed out: " + stall);
        assertEquals(TlsStall.REQUESTS, connect + outcomes.getOrDefault("unreported", 0), "nothing but that: " + stall);
        assertEquals(connect, number(stall, "ended"), "ended: those its handshake's read timeout ended: " + stall);
        assertLate(stall, AdapterConfig.DEFAULT_CONNECT_TIMEOUT.minus(TlsStall.TIMEOUT).toMillis());
    }

    /** The front read every request's ClientHello, the stub no request: each ended, if at all, in its handshake. */
    private static void reachedEveryWay(CaseResult r) {
        for (String w : TlsStall.WAYS) {
            Map<String, Object> m = way(r, w);
            assertTrue(number(m, "helloes") >= TlsStall.REQUESTS, w + ": " + m);
            assertEquals(0, number(m, "stubReads"), w + ": " + m);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> way(CaseResult r, String way) {
        return (Map<String, Object>) r.figures().get(way);
    }

    private static long number(Map<String, Object> m, String name) {
        return ((Number) m.get(name)).longValue();
    }
}
