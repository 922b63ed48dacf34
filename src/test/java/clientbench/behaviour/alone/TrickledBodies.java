package clientbench.behaviour.alone;

import clientbench.stub.StubServer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The trickle of the deadline cases, for a library whose own 1 s timeout bounds each read. */
final class TrickledBodies {

    private TrickledBodies() {
    }

    /**
     * 5 bodies trickled a byte every 400 ms at once, {@code get} setting the library's timeout: none fired, each body
     * read in full, the last more than 1 s + 2 s after the sends (the stub's own timer takes 3.6 s or more).
     */
    static void assertNoneTimesOut(StubServer stub, StubHabits.Get get) throws Exception {
        long start = System.nanoTime();
        List<CompletableFuture<String>> calls = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            calls.add(get.get(stub.uri() + StubHabits.TRICKLE, "trickle-" + i));
        }
        Map<String, Integer> outcomes = new TreeMap<>();
        for (CompletableFuture<String> c : calls) {
            outcomes.merge(c.get(20, TimeUnit.SECONDS), 1, Integer::sum);
        }
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertAll(outcomes + " after " + ms + " ms",
                () -> assertEquals(Map.of("200:" + StubHabits.TRICKLE_BYTES, 5), outcomes, "none fired"),
                () -> assertTrue(ms > StubHabits.TIMEOUT.plus(StubHabits.LATE).toMillis(), "past 1 s + 2 s"),
                () -> assertEquals(5, StubHabits.reads(stub, "trickle-")));
    }
}
