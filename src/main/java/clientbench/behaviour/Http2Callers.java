package clientbench.behaviour;

import clientbench.api.HttpClientAdapter;
import clientbench.api.Protocol;
import clientbench.stub.StubServer;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The HTTP/2 cases' load: callers at once on one h2c client, each sending its requests in turn, and what the stub
 * counted of it (connections, streams open at once on one connection, GOAWAYs and the streams they refused), so that a
 * case can tell a client that met its condition from one that never did.
 */
final class Http2Callers {

    static final Duration TIMEOUT = Duration.ofSeconds(5);
    /** Well past {@link #TIMEOUT}, within which every request sent reports; a client whose streams hang stops here. */
    private static final Duration BOUND = Duration.ofSeconds(15);

    private Http2Callers() {
    }

    /**
     * Runs {@code callers} x {@code perCaller} requests for {@code pathAndQuery}; the figures. The client's settings
     * record the connections it opened, from the stub's count, beside what the adapter says of them.
     * @throws BehaviourCase.NotApplicable when the client has no HTTP/2 (it refuses h2c)
     */
    static Map<String, Object> run(CaseContext c, StubServer stub, String pathAndQuery, int callers, int perCaller)
            throws Exception {
        URI uri = stub.uri();
        HttpClientAdapter adapter = c.adapter(uri, Protocol.H2C, TIMEOUT);
        Map<String, Integer> warm = c.warmUp(adapter, uri);
        long deadline = System.nanoTime() + BOUND.toNanos();
        List<Future<List<CaseRequests.Done>>> running = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < callers; i++) {
                int caller = i;
                running.add(threads.submit(() -> {
                    List<CaseRequests.Done> done = new ArrayList<>();
                    for (int j = 0; j < perCaller && System.nanoTime() - deadline < 0; j++) {
                        done.add(CaseRequests.sendAndWait(adapter, c.get(uri, pathAndQuery, "r-" + caller + "-" + j),
                                TIMEOUT.plusSeconds(1)));
                    }
                    return done;
                }));
            }
        } // waits for every caller: each stops at the deadline
        List<CaseRequests.Done> done = new ArrayList<>();
        for (Future<List<CaseRequests.Done>> f : running) {
            done.addAll(f.get());
        }
        StubServer.Tally tally = stub.tally();
        long connections = stub.stats().accepted();
        c.observed("h2Connections", connections + " opened in this case (the stub's count, the warm-up's included)");
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("warmUp", warm);
        f.put("requests", callers * perCaller);
        f.put("sent", done.size());
        f.put("outcomes", CaseRequests.classes(done));
        f.put("failures", CaseRequests.failures(done));
        f.put("said", CaseRequests.said(done));
        f.putAll(StubReadCounts.of(stub, c.key("r-"), "request"));
        f.put("connectionsOpened", connections);
        f.put("peakStreams", stub.stats().peakStreams());
        f.put("goAways", tally.goAways());
        f.put("refusedByGoAway", tally.refusedStreams());
        return f;
    }
}
