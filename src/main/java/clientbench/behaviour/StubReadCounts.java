package clientbench.behaviour;

import clientbench.stub.StubServer;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/** The stub's counts of the requests of one kind it read: in all, and how many of them more than once. */
final class StubReadCounts {

    /** Far past a closed client's last close reaching the stub on a busy machine: a sound client never waits it out. */
    static final Duration CLOSES_BOUND = Duration.ofSeconds(15);

    private StubReadCounts() {
    }

    /**
     * Waits until the stub has seen every connection close, their client closed: a request is read before the close
     * that follows it, while a client can fail one on the stub's FIN before the stub reads it. Then counts are final.
     * @throws IllegalStateException when one is still open {@link #CLOSES_BOUND} on: a count could miss a request
     */
    static void awaitEveryConnectionClosed(StubServer stub) throws InterruptedException {
        if (!CaseRequests.until(() -> stub.openConnections() == 0, CLOSES_BOUND)) {
            throw new IllegalStateException("connections still open at the stub " + CLOSES_BOUND.toSeconds()
                    + " s after their client closed: " + stub.openConnections() + "; its counts could miss requests");
        }
    }

    /**
     * {@code <name>Reads}: heads read; {@code <name>SentTwice}: logical requests sent twice or more, each read or refused
     * as it came after the stub's FIN.
     */
    static Map<String, Object> of(StubServer stub, String keyPrefix, String name) {
        Map<String, Integer> read = stub.seen(keyPrefix);
        Map<String, Integer> sends = new HashMap<>(read);
        stub.seenAfterFin(keyPrefix).forEach((k, n) -> sends.merge(k, n, Integer::sum));
        Map<String, Object> f = new LinkedHashMap<>();
        f.put(name + "Reads", read.values().stream().mapToInt(Integer::intValue).sum());
        f.put(name + "SentTwice", sends.values().stream().filter(n -> n > 1).count());
        return f;
    }

    /**
     * With {@link #of}, what the server's close met: {@code <name>SentOnClosed}, logical requests sent on a connection
     * after the stub's FIN; {@code <name>RaceClosed}, those whose connection the idle race closed as they arrived.
     */
    static Map<String, Object> closes(StubServer stub, String keyPrefix, String name) {
        Map<String, Object> f = of(stub, keyPrefix, name);
        f.put(name + "SentOnClosed", stub.seenAfterFin(keyPrefix).size());
        f.put(name + "RaceClosed", stub.seenRaceClosed(keyPrefix).size());
        return f;
    }
}
