package clientbench.behaviour.alone;

import clientbench.stub.StubServer;

import org.junit.jupiter.api.function.Executable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Closed in flight, for a library called directly, as the {@code closed-at-once} case sends: the stub closes each
 * kept-alive connection (FIN) right after its answer, without {@code Connection: close}; rounds of a 1 KiB POST then a
 * GET, each sent as soon as the last answer is in, so the FIN is in flight as it goes. Counts are the stub's, taken once
 * the client closed and the stub saw each connection close (a request is read before the close after it).
 */
final class ClosedInFlight {

    /** The case's habit: a FIN right after every answer. */
    static final String HABIT = "/?idleClose=fin&idleMs=0";
    /** The case's rounds, and its bound on them in time. */
    static final int ROUNDS = 500;
    private static final Duration BOUND = Duration.ofSeconds(20);

    /** One request, keyed for the stub's count (a POST carries 1 KiB), sent and waited for: its status, or its failure. */
    interface Send {
        String send(String method, String url, String key) throws Exception;
    }

    /**
     * What the rule judges: POSTs the stub read twice or more (read, or refused as they came after its FIN), GETs whose
     * caller saw a failure (lost: a GET may be sent again), and how many of each went out.
     */
    record Counts(int rounds, int postsTwice, int postsFailed, int getsFailed) {
    }

    private ClosedInFlight() {
    }

    /**
     * One GET gives the connection the habit, then rounds until {@code maxRounds}, the time bound, or {@code enough}
     * holds of the counts so far; then {@code close} closes the client and the counts are read.
     */
    static Counts run(StubServer stub, Send send, AutoCloseable close, int maxRounds, Predicate<Counts> enough)
            throws Exception {
        String url = stub.uri() + HABIT;
        assertEquals("200", send.send("GET", url, "closed-from-here"), "its connection takes on the habit");
        int postsFailed = 0;
        int getsFailed = 0;
        int round = 0;
        long deadline = System.nanoTime() + BOUND.toNanos();
        do {
            round++;
            postsFailed += "200".equals(send.send("POST", url, "post-" + round)) ? 0 : 1;
            getsFailed += "200".equals(send.send("GET", url, "get-" + round)) ? 0 : 1;
        } while (round < maxRounds && System.nanoTime() - deadline < 0
                && !enough.test(new Counts(round, twice(stub), postsFailed, getsFailed)));
        close.close();
        assertTrue(StubHabits.until(() -> stub.openConnections() == 0, Duration.ofSeconds(15)),
                "every connection closed at the stub, so its counts are final");
        return new Counts(round, twice(stub), postsFailed, getsFailed);
    }

    /** The NO of a library that loses GETs: a GET whose caller saw it fail, and no POST sent twice; beside any checks more. */
    static void assertAGetLost(String heading, Counts counts, Executable... more) {
        List<Executable> checks = new ArrayList<>(List.of(
                () -> assertTrue(counts.getsFailed() >= 1, "closed in flight: GET n/N lost (NO)"),
                () -> assertEquals(0, counts.postsTwice(), "no POST sent twice")));
        checks.addAll(List.of(more));
        assertAll(heading, checks);
    }

    /** POSTs the stub read or refused twice or more, by key. */
    private static int twice(StubServer stub) {
        Map<String, Integer> sends = new java.util.HashMap<>(stub.seen("post-"));
        stub.seenAfterFin("post-").forEach((k, n) -> sends.merge(k, n, Integer::sum));
        return (int) sends.values().stream().filter(n -> n > 1).count();
    }
}
