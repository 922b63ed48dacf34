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

/** The deadline cases, for a library whose own 1 s request timeout ends when the response head arrives. */
final class HeadTimeouts {

    private HeadTimeouts() {
    }

    /**
     * 5 requests each to a server that never answers, one that stalls the body and one that trickles it, at once,
     * {@code get} setting the library's 1 s timeout: within 1 s + 2 s only those never answered time out (as
     * {@code timedOut}); no stalled one ends, and each trickled one ends ok with its 10 bytes, 3 s or more later.
     */
    static void assertItFiresOnlyBeforeTheHead(StubServer stub, StubHabits.Get get, String timedOut) throws Exception {
        Map<String, String> faults = Map.of("never", StubHabits.NEVER, "stall", StubHabits.STALL,
                "trickle", StubHabits.TRICKLE);
        Map<String, List<CompletableFuture<String>>> byFault = new TreeMap<>();
        for (Map.Entry<String, String> fault : faults.entrySet()) {
            List<CompletableFuture<String>> calls = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                calls.add(get.get(stub.uri() + fault.getValue(), fault.getKey() + "-" + i));
            }
            byFault.put(fault.getKey(), calls);
        }
        long start = System.nanoTime();
        Thread.sleep(StubHabits.TIMEOUT.plus(StubHabits.LATE).toMillis());
        Map<String, Integer> ended = new TreeMap<>();
        byFault.forEach((fault, calls) -> calls.stream().filter(CompletableFuture::isDone)
                .forEach(c -> ended.merge(fault + " " + c.join(), 1, Integer::sum)));
        Map<String, Integer> trickled = new TreeMap<>();
        for (CompletableFuture<String> c : byFault.get("trickle")) {
            trickled.merge(c.get(10, TimeUnit.SECONDS), 1, Integer::sum);
        }
        long trickleMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertAll("ended within 3 s " + ended + "; trickled " + trickled,
                () -> assertEquals(Map.of("never " + timedOut, 5), ended,
                        "the timeout fired on the head never sent, and on nothing else"),
                () -> assertEquals(Map.of("200:" + StubHabits.TRICKLE_BYTES, 5), trickled, "every trickled body read"),
                () -> assertTrue(trickleMs >= 3_000, "the trickle outlasted 1 s + 2 s"),
                () -> assertEquals(5, StubHabits.reads(stub, "stall-"), "each stalled one sent"));
    }
}
