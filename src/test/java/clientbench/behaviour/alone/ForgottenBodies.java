package clientbench.behaviour.alone;

import clientbench.stub.StubServer;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * unclosed-body's leak with a library alone (clientbench.behaviour.UnclosedBody): error answers with a 1 MiB body whose
 * responses the caller forgets, bodies neither read nor closed, the stub shutting its side once a body has left, so a
 * connection still open is one the client holds; then two collections, one request to another stub for the library's
 * housekeeping, and the count once it has not moved for a second (the case's settle). Every count is the stub's.
 */
final class ForgottenBodies {

    /** The case's habit: more than the socket buffers and any read-ahead hold stays on the connection. */
    static final String ERROR = "/?status=500&idleClose=fin&idleMs=0&bytes=" + 1024 * 1024;
    /** Forgotten responses a test leaves, under every pool limit but Vert.x's and Apache's 5. */
    static final int LEFT_OPEN = 10;
    /** The case's settle: a library closes what it reclaimed within milliseconds; at most {@link #SETTLE_BOUND}. */
    static final Duration SETTLE = Duration.ofSeconds(1);
    static final Duration SETTLE_BOUND = Duration.ofSeconds(3);
    /** How long the next request may wait unread for a connection before it counts as waiting on the held ones. */
    static final Duration NEXT_WAITS = Duration.ofSeconds(1);

    /** Sends a GET of {@code url} with the key header, waits for its head and forgets the response. */
    @FunctionalInterface
    interface Forget {
        int send(String url, String key) throws Exception;
    }

    /** Sends a request keyed {@code key} and waits for its end. */
    @FunctionalInterface
    interface Keyed {
        void send(String url, String key) throws Exception;
    }

    /** One request the library completes normally (read and closed), for its housekeeping. */
    @FunctionalInterface
    interface Request {
        void send(String url) throws Exception;
    }

    private ForgottenBodies() {
    }

    /**
     * {@code n} error answers in turn, each forgotten once its 500 head is in; then the connections {@code leaky} still
     * has open after two collections and a request to {@code elsewhere}.
     */
    static int heldAfterCollection(StubServer leaky, StubServer elsewhere, int n, Forget forget, Request housekeeping)
            throws Exception {
        forgetEach(leaky, n, forget);
        System.gc(); // the responses are unreachable: what the library holds is its own
        System.gc();
        housekeeping.send(elsewhere.uri() + "/?bytes=5");
        long end = System.nanoTime() + SETTLE_BOUND.toNanos();
        long since = System.nanoTime();
        int held = leaky.openConnections();
        while (System.nanoTime() - since < SETTLE.toNanos() && System.nanoTime() - end < 0) {
            Thread.sleep(50);
            int now = leaky.openConnections();
            if (now != held) {
                held = now;
                since = System.nanoTime();
            }
        }
        return held;
    }

    /**
     * Whether {@code condition} holds within {@link #COLLECTED_WITHIN}, asking for a collection every 100 ms: a socket
     * nothing holds is closed by the JDK's cleaner once collected, which System.gc() only requests.
     */
    static boolean untilCollected(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + COLLECTED_WITHIN.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            System.gc();
            Thread.sleep(100);
        }
        return true;
    }

    /** Far past a full collection and the cleaner's close on a busy machine. */
    static final Duration COLLECTED_WITHIN = Duration.ofSeconds(10);

    /** {@code n} error answers in turn, each forgotten once its 500 head is in; the stub read each one. */
    static void forgetEach(StubServer leaky, int n, Forget forget) throws Exception {
        for (int i = 0; i < n; i++) {
            assertEquals(500, forget.send(leaky.uri() + ERROR, "open-" + i), "open-" + i);
        }
        assertEquals(n, StubHabits.reads(leaky, "open-"), "the stub read each");
    }

    /**
     * One more request ({@code send} on a thread of its own, keyed "next") is not read by {@code leaky} within a
     * second: it waits for a connection the forgotten bodies hold.
     */
    static void assertTheNextWaits(StubServer leaky, Keyed send) throws InterruptedException {
        Thread.ofVirtual().start(() -> {
            try {
                send.send(leaky.uri() + "/?bytes=5", "next");
            } catch (Exception e) {
                // ended by the client's close: what matters is that the stub never read it
            }
        });
        assertFalse(StubHabits.until(() -> StubHabits.reads(leaky, "next") > 0, NEXT_WAITS),
                "the next request waits for a connection the forgotten bodies hold");
    }
}
