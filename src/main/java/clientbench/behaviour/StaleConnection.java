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
 * reset (RST), or in the race (as the request's head arrives, unanswered). Rounds of a POST, then a GET, each after an
 * idle spell five times the server's: the errors callers saw, and how many times the stub read each (a POST read twice
 * was sent twice, the worst outcome).
 */
final class StaleConnection implements BehaviourCase {

    static final long IDLE_MS = 100;
    /** Long past the server's idle close: a client has had time to see a FIN or RST before it reuses the connection. */
    static final Duration GAP = Duration.ofMillis(500);
    static final int ROUNDS = 2;
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Duration WAIT = TIMEOUT.plusSeconds(1);

    /** fin, rst or race: the stub's idleClose. */
    private final String mode;

    StaleConnection(String mode) {
        this.mode = mode;
    }

    @Override
    public String key() {
        return "stale-" + mode;
    }

    @Override
    public Tuning tuning() {
        return Tuning.AS_SHIPPED;
    }

    @Override
    public String provokes() {
        return switch (mode) {
            case "fin" -> "the server closes a kept-alive connection in order (FIN) after " + IDLE_MS + " ms idle";
            case "rst" -> "the server resets a kept-alive connection (RST) after " + IDLE_MS + " ms idle";
            default -> "the server's idle timeout races the client's reuse: the connection, idle " + IDLE_MS
                    + " ms or more, is closed as the next request's head arrives, unanswered";
        } + "; " + ROUNDS + " rounds of a 1 KiB POST and a GET, each after " + GAP.toMillis() + " ms idle";
    }

    @Override
    public Map<String, Object> run(CaseContext c) throws Exception {
        StubServer stub = c.stub();
        URI uri = stub.uri();
        String query = "/?idleClose=" + mode + "&idleMs=" + IDLE_MS;
        HttpClientAdapter adapter = c.adapter(uri, TIMEOUT);
        Map<String, Integer> warm = c.warmUp(adapter, uri);
        Calls.sendAndWait(adapter, c.get(uri, query, "idle-from-here"), WAIT); // its connection takes on the habit
        List<Calls.Done> posts = new ArrayList<>();
        List<Calls.Done> gets = new ArrayList<>();
        // Each probe after a request whose answer leaves an idle connection behind: a probe that failed left none.
        for (int i = 1; i <= ROUNDS; i++) {
            Thread.sleep(GAP.toMillis());
            posts.add(Calls.sendAndWait(adapter, c.post(uri, query, "post-" + i), WAIT));
            Calls.sendAndWait(adapter, c.get(uri, query, "idle-after-post-" + i), WAIT);
            Thread.sleep(GAP.toMillis());
            gets.add(Calls.sendAndWait(adapter, c.get(uri, query, "get-" + i), WAIT));
            Calls.sendAndWait(adapter, c.get(uri, query, "idle-after-get-" + i), WAIT);
        }
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("warmUp", warm);
        f.putAll(postsAndGets(c, stub, posts, gets));
        return f;
    }

    /**
     * How the POSTs and GETs sent on connections the server closed ended, what the clients said, the stub's reads of
     * each (a POST read twice was sent twice), the connections opened and those the server's habit closed.
     */
    static Map<String, Object> postsAndGets(CaseContext c, StubServer stub, List<Calls.Done> posts,
                                            List<Calls.Done> gets) {
        StubServer.Tally tally = stub.tally();
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("posts", Calls.classes(posts));
        f.put("gets", Calls.classes(gets));
        f.put("said", Calls.said(Stream.concat(posts.stream(), gets.stream()).toList()));
        f.putAll(Reads.of(stub, c.key("post-"), "post"));
        f.putAll(Reads.of(stub, c.key("get-"), "get"));
        f.put("connectionsOpened", stub.stats().accepted());
        f.put("closedByServer", tally.idleCloses() + tally.raceCloses());
        return f;
    }
}
