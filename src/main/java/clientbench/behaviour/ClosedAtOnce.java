package clientbench.behaviour;

import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Tuning;
import clientbench.stub.StubServer;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A server that closes each kept-alive connection (FIN) right after its answer, without {@code Connection: close}, as
 * one does after an unhandled error; the client sends its next request as soon as the last answer is in, so the FIN is
 * in flight as it sends (no check could see it; {@code closed-at-once-seen} waits for it): {@value #ROUNDS} rounds of
 * a 1 KiB POST, then a GET, and more while a kind has not met the close. The errors callers saw, the stub's reads,
 * and the requests that came after its FIN.
 */
final class ClosedAtOnce implements BehaviourCase {

    static final int ROUNDS = 500;
    /**
     * Past {@link #ROUNDS}, rounds go on for at most this long while the POSTs or the GETs have not met the close: a
     * race met once in several hundred rounds (Reactor Netty's GETs) is then met in nearly every run, not every other.
     */
    static final Duration UNTIL_MET = Duration.ofSeconds(5);
    /** Past {@link #ROUNDS}, the stub's counts are read every this many rounds. */
    private static final int CHECK_EVERY = 50;
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Duration WAIT = TIMEOUT.plusSeconds(1);
    /** A client that hangs on each request stops the case here; what was sent is counted. */
    private static final Duration BOUND = Duration.ofSeconds(20);

    @Override
    public String key() {
        return "closed-at-once";
    }

    /** Alone, after the waiting cases: beside them a caller's next send lags the FIN, and a rare race goes unseen. */
    @Override
    public boolean busy() {
        return true;
    }

    @Override
    public Tuning tuning() {
        return Tuning.AS_SHIPPED;
    }

    @Override
    public String provokes() {
        return "the server closes each kept-alive connection in order (FIN) right after its answer, without Connection:"
                + " close; " + ROUNDS + " rounds of a 1 KiB POST and a GET, each sent as soon as the last answer is in,"
                + " then up to " + UNTIL_MET.toSeconds() + " s more while the POSTs or the GETs have not met the close";
    }

    @Override
    public Map<String, Object> run(CaseContext c) throws Exception {
        StubServer stub = c.stub();
        URI uri = stub.uri();
        String query = "/?idleClose=fin&idleMs=0";
        HttpClientAdapter adapter = c.adapter(uri, TIMEOUT);
        Map<String, Integer> warm = c.warmUp(adapter, uri);
        CaseRequests.sendAndWait(adapter, c.get(uri, query, "closed-from-here"), WAIT); // its connection takes on the habit
        List<CaseRequests.Done> posts = new ArrayList<>();
        List<CaseRequests.Done> gets = new ArrayList<>();
        long deadline = System.nanoTime() + BOUND.toNanos();
        long metBound = 0;
        for (int i = 1; System.nanoTime() - deadline < 0; i++) {
            if (i == ROUNDS + 1) {
                metBound = System.nanoTime() + UNTIL_MET.toNanos();
            }
            boolean look = i > ROUNDS && (i - 1) % CHECK_EVERY == 0;
            if (look && (System.nanoTime() - metBound >= 0
                    || met(stub, c.key("post-"), posts) && met(stub, c.key("get-"), gets))) {
                break;
            }
            posts.add(CaseRequests.sendAndWait(adapter, c.post(uri, query, "post-" + i), WAIT));
            gets.add(CaseRequests.sendAndWait(adapter, c.get(uri, query, "get-" + i), WAIT));
        }
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("warmUp", warm);
        f.put("rounds", posts.size());
        f.putAll(StaleConnection.postsAndGets(c, stub, posts, gets));
        return f;
    }

    /**
     * Whether a request of the kind met the close so far: the stub read it after its FIN or closed under it, or its
     * caller saw it fail other than to connect (a close not in the stub's count yet). A stopping rule only: the figures
     * are counted once the client is closed.
     */
    private static boolean met(StubServer stub, String key, List<CaseRequests.Done> done) {
        return !stub.seenAfterFin(key).isEmpty() || !stub.seenRaceClosed(key).isEmpty()
                || done.stream().anyMatch(d -> d.outcome() != Outcome.OK && d.outcome() != Outcome.CONNECT);
    }
}
