package clientbench.behaviour;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Real clients on the trickle, a byte every 400 ms against a 1 s timeout: Apache's own responseTimeout is per read and
 * never fires, the stub still trickling every body at the end of the wait; OkHttp's own callTimeout is total and fires
 * every time; the suite's timer on Apache fires every time. Each case names the kind its client reported.
 */
@Timeout(60)
class LibraryTimeoutKindsTest {

    @Test
    void aPerReadTimeoutNeverFiresOnTheTrickleWhileATotalOneAndTheSuitesTimerDo() throws Exception {
        Map<String, Future<CaseResult>> running = new LinkedHashMap<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            running.put("apache", threads.submit(() -> BehaviourProbe.one("apache", 1, new Deadline("trickle"))));
            running.put("okhttp", threads.submit(() -> BehaviourProbe.one("okhttp", 1, new Deadline("trickle"))));
            running.put("apache, suite", threads.submit(() -> BehaviourProbe.one("apache", 1, Deadline.suite())));
        }
        CaseResult perRead = running.get("apache").get();
        CaseResult total = running.get("okhttp").get();
        CaseResult suite = running.get("apache, suite").get();
        assertAll(perRead + "\n" + total + "\n" + suite,
                () -> assertNull(perRead.failure()),
                () -> assertEquals("library-timeout", perRead.tuning()),
                () -> assertEquals("per-read", perRead.figures().get("timeoutKind")),
                () -> assertEquals(0, number(perRead, "fired")),
                () -> assertEquals(Deadline.REQUESTS, number(perRead, "stubStillAnswering")),
                () -> assertEquals("total", total.figures().get("timeoutKind")),
                () -> assertEquals(Deadline.REQUESTS, number(total, "fired")),
                () -> assertEquals(Map.of("timeout", Deadline.REQUESTS), total.figures().get("outcomes")),
                () -> assertEquals("as-shipped", suite.tuning()),
                () -> assertEquals("deadline-suite", Deadline.suite().key()),
                () -> assertEquals("suite", suite.figures().get("timeoutKind")),
                () -> assertEquals(Map.of("timeout", Deadline.REQUESTS), suite.figures().get("outcomes")));
    }

    private static int number(CaseResult r, String figure) {
        return ((Number) r.figures().get(figure)).intValue();
    }
}
