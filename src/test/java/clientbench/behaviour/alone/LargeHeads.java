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

/** The big-headers case, for a library called directly: a 6 KiB head, then 3 of 12 KiB at once. */
final class LargeHeads {

    private LargeHeads() {
    }

    /**
     * The 6 KiB head is read ({@code smallOk}: the library's outcome for it); each 12 KiB head, every one sent by the
     * stub, fails as {@code failure}: a client that refuses what servers commonly send.
     */
    static void assertEachTwelveKibHeadFails(StubServer stub, StubHabits.Get get, String smallOk, String failure)
            throws Exception {
        String small = get.get(stub.uri() + "/?bytes=100&headerBytes=6144", "h6k").get(10, TimeUnit.SECONDS);
        List<CompletableFuture<String>> large = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            large.add(get.get(stub.uri() + "/?bytes=100&headerBytes=" + StubHabits.HEAD_BYTES, "h12k-" + i));
        }
        Map<String, Integer> outcomes = new TreeMap<>();
        for (CompletableFuture<String> c : large) {
            outcomes.merge(c.get(10, TimeUnit.SECONDS), 1, Integer::sum);
        }
        assertAll("6K " + small + ", 12K " + outcomes + "; stub " + stub.tally().toJson(),
                () -> assertEquals(smallOk, small),
                () -> assertEquals(4, stub.tally().largeHeads(), "the stub sent each head"),
                () -> assertEquals(Map.of(failure, 3), outcomes, "every 12 KiB head failed"));
    }
}
