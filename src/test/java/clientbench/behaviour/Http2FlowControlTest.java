package clientbench.behaviour;

import clientbench.stub.StubServer;
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
 * Real clients through both parts, set beside the stub's counts: the JDK reopens its windows as it reads (the stub
 * counts its WINDOW_UPDATEs) and waits out the stub's shut window, which read every upload in full after its pauses.
 * Helidon's WebClient 4.5.0 credits each stream WINDOW_UPDATE twice and so sends past the window the stub granted: the
 * stub closes those streams (its FLOW_CONTROL_ERROR count) and reads none of them in full.
 */
@Timeout(120)
class Http2FlowControlTest {

    private static final int REQUESTS = Http2FlowControl.CALLERS * Http2FlowControl.PER_CALLER;

    @Test
    void theJdkWaitsForEveryWindowAndHelidonOverrunsThem() throws Exception {
        Future<CaseResult> jdk;
        Future<CaseResult> helidon;
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            jdk = threads.submit(() -> BehaviourProbe.one("jdk", 1, new Http2FlowControl()));
            helidon = threads.submit(() -> BehaviourProbe.one("helidon", 1, new Http2FlowControl()));
        }
        Map<String, Object> down = part(jdk.get(), "down");
        Map<String, Object> up = part(jdk.get(), "up");
        assertAll("jdk: " + down + " / " + up,
                () -> assertEquals(Map.of("ok", REQUESTS), down.get("outcomes")),
                () -> assertEquals(REQUESTS, number(down, "stubReads")),
                () -> assertTrue(number(down, "windowUpdatesIn") > 0, "the client reopened its window as it read"),
                () -> assertEquals(0, number(down, "answersUnsent")),
                () -> assertEquals(Map.of("ok", REQUESTS), up.get("outcomes")),
                () -> assertEquals(REQUESTS, number(up, "pausedBodies"), "the stub read every upload to its end"),
                () -> assertEquals((long) REQUESTS * Http2FlowControl.UP_BYTES, number(up, "pausedBodyBytes")),
                () -> assertTrue(number(up, "readPauses") >= REQUESTS * (Http2FlowControl.UP_BYTES / (16 * 1024)),
                        "a pause per 16 KiB read"),
                () -> assertEquals(0, number(up, "flowControlErrors")));
        Map<String, Object> overran = part(helidon.get(), "up");
        int failed = REQUESTS - ((Map<?, ?>) overran.get("outcomes")).entrySet().stream()
                .filter(e -> e.getKey().equals("ok")).mapToInt(e -> ((Number) e.getValue()).intValue()).sum();
        assertAll("helidon: " + overran,
                () -> assertTrue(number(overran, "readPauses") > 0, "reached: the stub held its window shut"),
                () -> assertTrue(number(overran, "flowControlErrors") >= 1, "the stub closed a stream it overran"),
                () -> assertTrue(failed >= 1, "and the client's request failed"),
                () -> assertTrue(number(overran, "pausedBodies") <= REQUESTS - failed,
                        "no failed upload read in full"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> part(CaseResult r, String name) {
        assertNull(r.failure(), r.toString());
        assertEquals("as-shipped", r.tuning());
        return (Map<String, Object>) r.figures().get(name);
    }

    private static long number(Map<String, Object> m, String name) {
        return ((Number) m.get(name)).longValue();
    }

    /** The counts the case reads are the stub's own: a field renamed there fails here at compile time. */
    @SuppressWarnings("unused")
    private static long[] counted(StubServer.Tally t) {
        return new long[] {t.windowUpdatesIn(), t.readPauses(), t.pausedBodies(), t.flowControlErrors()};
    }
}
