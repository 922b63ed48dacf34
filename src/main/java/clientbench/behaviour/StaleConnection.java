package clientbench.behaviour;

import clientbench.api.HttpClientAdapter;
import clientbench.api.Tuning;
import clientbench.stub.StubServer;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A kept-alive connection the server closes once idle, and the client's next request on it: closed in order (FIN), by
 * reset (RST), or in the race (as the request's head arrives, unanswered). Rounds of a POST, then a GET, each on the
 * connection an ordinary request left idle: the errors callers saw, how many times the stub read each (a POST read
 * twice was sent twice), and, for FIN and RST, how many were sent after the stub's own count shows the close went out
 * ({@code closeSeenBeforeSend}: the client could have seen it), and how many came on the closed connection.
 */
final class StaleConnection implements BehaviourCase {

    static final long IDLE_MS = 100;
    /** Long past the server's idle close: a client has had time to see a FIN or RST before it reuses the connection. */
    static final Duration GAP = Duration.ofMillis(500);
    static final int ROUNDS = 2;
    /** closed-at-once-seen: after the close the stub counted, this long for the client's I/O thread to read it. */
    static final Duration SEEN_GRACE = Duration.ofMillis(200);
    static final int SEEN_ROUNDS = 5;
    /** A close the stub armed goes out within milliseconds; far past that on a busy machine. */
    private static final Duration PROOF_BOUND = Duration.ofSeconds(2);
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Duration WAIT = TIMEOUT.plusSeconds(1);

    private final String key;
    /** fin, rst or race: the stub's idleClose. */
    private final String mode;
    private final long idleMs;
    /** After the close went out (or, in the race, after the last answer), before the next probe. */
    private final Duration afterClose;
    private final int rounds;
    /** The probes carry the habit too (so the next request meets it), or only the requests that leave it behind. */
    private final boolean probesCarryHabit;

    private StaleConnection(String key, String mode, long idleMs, Duration afterClose, int rounds, boolean probesCarryHabit) {
        this.key = key;
        this.mode = mode;
        this.idleMs = idleMs;
        this.afterClose = afterClose;
        this.rounds = rounds;
        this.probesCarryHabit = probesCarryHabit;
    }

    /** stale-fin, stale-rst, stale-race: closed after {@value #IDLE_MS} ms idle, each probe {@link #GAP} after the answer. */
    StaleConnection(String mode) {
        this("stale-" + mode, mode, IDLE_MS, "race".equals(mode) ? GAP : GAP.minusMillis(IDLE_MS), ROUNDS, true);
    }

    /**
     * closed-at-once-seen: a FIN right after the answer, and the next request sent once the stub's count shows it went
     * out, {@link #SEEN_GRACE} later: a request sent on that connection was sent on one whose close had arrived.
     */
    static StaleConnection closedAtOnceSeen() {
        return new StaleConnection("closed-at-once-seen", "fin", 0, SEEN_GRACE, SEEN_ROUNDS, false);
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public Tuning tuning() {
        return Tuning.AS_SHIPPED;
    }

    @Override
    public String provokes() {
        return switch (mode) {
            case "fin" -> idleMs == 0 ? "the server closes each kept-alive connection in order (FIN) right after its"
                    + " answer, without Connection: close, and the next request is sent once the stub's count shows the"
                    + " FIN went out, " + afterClose.toMillis() + " ms later"
                    : "the server closes a kept-alive connection in order (FIN) after " + idleMs + " ms idle";
            case "rst" -> "the server resets a kept-alive connection (RST) after " + idleMs + " ms idle";
            default -> "the server's idle timeout races the client's reuse: the connection, idle " + idleMs
                    + " ms or more, is closed as the next request's head arrives, unanswered";
        } + "; " + rounds + " rounds of a 1 KiB POST and a GET" + (idleMs == 0 ? "" : ", each after "
                + GAP.toMillis() + " ms idle");
    }

    @Override
    public Map<String, Object> run(CaseContext c) throws Exception {
        StubServer stub = c.stub();
        URI uri = stub.uri();
        String habit = "/?idleClose=" + mode + "&idleMs=" + idleMs;
        String probe = probesCarryHabit ? habit : "/?bytes=5";
        HttpClientAdapter adapter = c.adapter(uri, TIMEOUT);
        Map<String, Integer> warm = c.warmUp(adapter, uri);
        CloseProof proof = new CloseProof(stub);
        CaseRequests.sendAndWait(adapter, c.get(uri, habit, "idle-from-here"), WAIT); // its connection takes on the habit
        List<CaseRequests.Done> posts = new ArrayList<>();
        List<CaseRequests.Done> gets = new ArrayList<>();
        int seen = 0;
        // Each probe after a request whose answer leaves a connection to close behind: a probe that failed left none.
        for (int i = 1; i <= rounds; i++) {
            seen += closed(proof) ? 1 : 0;
            posts.add(CaseRequests.sendAndWait(adapter, c.post(uri, probe, "post-" + i), WAIT));
            CaseRequests.sendAndWait(adapter, c.get(uri, habit, "idle-after-post-" + i), WAIT);
            seen += closed(proof) ? 1 : 0;
            gets.add(CaseRequests.sendAndWait(adapter, c.get(uri, probe, "get-" + i), WAIT));
            CaseRequests.sendAndWait(adapter, c.get(uri, habit, "idle-after-get-" + i), WAIT);
        }
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("warmUp", warm);
        if (!"race".equals(mode)) {
            f.put("closeSeenBeforeSend", seen);
        }
        f.putAll(postsAndGets(c, stub, posts, gets));
        return f;
    }

    /** Waits for the server's close, then {@link #afterClose}; in the race (no close before the send), only the gap. */
    private boolean closed(CloseProof proof) throws InterruptedException {
        boolean went = !"race".equals(mode) && proof.await(PROOF_BOUND);
        Thread.sleep(afterClose.toMillis());
        return went;
    }

    /**
     * How the POSTs and GETs sent on connections the server closed ended, what the clients said, the stub's reads of
     * each (a POST read twice was sent twice), those that came on a closed connection or met the race, the connections
     * opened and those the server's habit closed; counted once the client is closed and the stub saw each close.
     */
    static Map<String, Object> postsAndGets(CaseContext c, StubServer stub, List<CaseRequests.Done> posts,
                                            List<CaseRequests.Done> gets) throws InterruptedException {
        c.closeAdapters();
        StubReadCounts.awaitEveryConnectionClosed(stub);
        StubServer.Tally tally = stub.tally();
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("posts", CaseRequests.classes(posts));
        f.put("gets", CaseRequests.classes(gets));
        f.put("said", CaseRequests.said(Stream.concat(posts.stream(), gets.stream()).toList()));
        f.putAll(StubReadCounts.closes(stub, c.key("post-"), "post"));
        f.putAll(StubReadCounts.closes(stub, c.key("get-"), "get"));
        f.put("connectionsOpened", stub.stats().accepted());
        f.put("closedByServer", tally.idleCloses() + tally.raceCloses());
        return f;
    }
}
