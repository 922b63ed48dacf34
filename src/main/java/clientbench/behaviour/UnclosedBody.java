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
 * {@value #LEFT_OPEN} error answers (500, a 1 MiB body) at once whose responses the caller forgets, bodies neither read
 * nor closed, at the library's own pool limits (square/okhttp#2311). What the leak holds: the connections still open at
 * the stub once the answers are in, and again once the responses are dropped, collected and the library has had a
 * request to do its housekeeping on (it may reclaim them, and warn); then whether {@value #AFTER} ordinary requests at
 * once pass. The stub shuts its side of each connection once the body has left, so one still open is held by the
 * client; only the {@value #LEFT_OPEN} and then the ordinary requests reach that stub.
 */
final class UnclosedBody implements BehaviourCase {

    /** Past the largest pool a library ships (Jetty's 64 per destination): every finite default is used up. */
    static final int LEFT_OPEN = 70;
    static final int AFTER = 5;
    /** More than the socket buffers and any client's read-ahead hold: the rest stays on the connection. */
    static final int BODY_BYTES = 1024 * 1024;
    /** Past the case's end: no total timeout frees a held connection while the case looks. */
    static final Duration TIMEOUT = Duration.ofSeconds(30);
    /**
     * Requests still unanswered once nothing moved this long (none reached the stub, none was reported) wait on the
     * client: a loopback answer on a free connection comes far sooner, on a busy machine too.
     */
    static final Duration WAIT = Duration.ofSeconds(3);
    /** The most a wait for answers lasts: the case's waits (8 + 8 + 3 + 8 s) end inside {@link #TIMEOUT}. */
    static final Duration WAIT_BOUND = Duration.ofSeconds(8);
    /**
     * After the collection and the housekeeping request, the held connections are read once their count at the stub
     * has not moved this long: a library closes what it reclaimed within milliseconds. At most {@link #SETTLE_BOUND}.
     */
    static final Duration SETTLE = Duration.ofSeconds(1);
    static final Duration SETTLE_BOUND = Duration.ofSeconds(3);

    @Override
    public String key() {
        return "unclosed-body";
    }

    @Override
    public Tuning tuning() {
        return Tuning.LIBRARY_LIMITS; // a pool limit the library ships is what makes a leak bite
    }

    @Override
    public String provokes() {
        return LEFT_OPEN + " error answers (500, " + BODY_BYTES / (1024 * 1024) + " MiB body) at once whose responses"
                + " the caller forgets, bodies neither read nor closed, at the library's own pool limits; the connections"
                + " still open then, and after a collection and one request elsewhere; then " + AFTER + " ordinary"
                + " requests at once";
    }

    @Override
    public Map<String, Object> run(CaseContext c) throws Exception {
        StubServer leaky = c.stub();
        StubServer elsewhere = c.stub();
        URI uri = leaky.uri();
        HttpClientAdapter adapter = c.adapter(uri, TIMEOUT);
        Map<String, Integer> warm = c.warmUp(adapter, elsewhere.uri());
        Map<String, Object> f = new LinkedHashMap<>();
        List<CaseRequests.Done> leftOpen;
        List<CaseRequests.Done> housekeeping;
        try (LeakWarnings warnings = LeakWarnings.listen()) {
            List<CaseRequests.Call> open = new ArrayList<>();
            for (int i = 0; i < LEFT_OPEN; i++) {
                open.add(CaseRequests.send(adapter, c.get(uri, "/?status=500&idleClose=fin&idleMs=0&bytes=" + BODY_BYTES,
                        "open-" + i).withExpectedStatus(500).withBodyLeftOpen()));
            }
            leftOpen = CaseRequests.awaitSettled(open, () -> leaky.seen(c.key("open-")).keySet(), WAIT, WAIT_BOUND);
            f.put("heldOpen", leaky.openConnections());
            System.gc(); // the responses are unreachable: what the library holds is its own
            System.gc();
            List<CaseRequests.Call> chore = List.of(CaseRequests.send(adapter, c.get(elsewhere.uri(), "/?bytes=5",
                    "housekeeping")));
            housekeeping = CaseRequests.awaitSettled(chore, () -> elsewhere.seen(c.key("housekeeping")).keySet(), WAIT,
                    WAIT_BOUND);
            CaseRequests.untilSettled(() -> false, () -> true, leaky::openConnections, SETTLE, SETTLE_BOUND);
            f.put("heldAfterCollection", leaky.openConnections());
            f.put("leakWarnings", warnings.count());
        }
        List<CaseRequests.Call> after = new ArrayList<>();
        for (int i = 0; i < AFTER; i++) {
            after.add(CaseRequests.send(adapter, c.get(uri, "/?bytes=5", "after-" + i)));
        }
        List<CaseRequests.Done> then = CaseRequests.awaitSettled(after, () -> leaky.seen(c.key("after-")).keySet(), WAIT,
                WAIT_BOUND);
        f.put("warmUp", warm);
        f.put("timeoutMs", TIMEOUT.toMillis());
        f.put("waitedMs", WAIT.toMillis());
        f.put("leftOpen", LEFT_OPEN);
        f.put("leftOpenOutcomes", CaseRequests.classes(leftOpen));
        f.putAll(StubReadCounts.of(leaky, c.key("open-"), "leftOpenStub"));
        f.put("housekeepingOutcomes", CaseRequests.classes(housekeeping));
        f.put("afterRequests", AFTER);
        f.put("afterOutcomes", CaseRequests.classes(then));
        f.putAll(StubReadCounts.of(leaky, c.key("after-"), "afterStub"));
        f.put("afterMaxMs", then.stream().filter(CaseRequests.Done::reported).mapToDouble(CaseRequests.Done::millis).max()
                .orElse(-1));
        f.put("connectionsOpened", leaky.stats().accepted());
        f.put("said", CaseRequests.said(Stream.concat(leftOpen.stream(), then.stream()).toList()));
        return f;
    }
}
