package clientbench.behaviour;

import clientbench.api.HttpClientAdapter;
import clientbench.api.Request;
import clientbench.api.Tuning;
import clientbench.stub.StubServer;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@value #REQUESTS} requests one after another, every other answered 500 with a {@value #UNREAD_BYTES}-byte body the
 * caller leaves unread (it reads the head, then closes the response, as that library's users do), the others 200 with
 * 1 KiB read in full; every {@value #CLOSE_EVERY}th answer on a connection carries {@code Connection: close}. The
 * connections the stub accepted: a client that reuses opens one per {@value #CLOSE_EVERY} requests; one that drops a
 * connection whose body was left unread opens one for every such request. And the failures a caller saw.
 */
final class ConnectionReuse implements BehaviourCase {

    static final int REQUESTS = 500;
    static final int CLOSE_EVERY = 10;
    /** Longer than a socket's first read: the client must drain the rest or drop the connection. */
    static final int UNREAD_BYTES = 64 * 1024;
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Duration BOUND = Duration.ofSeconds(30);

    @Override
    public String key() {
        return "reuse";
    }

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
        return REQUESTS + " requests in turn; every other answered 500 with a " + UNREAD_BYTES + "-byte body the caller"
                + " closes unread after the head, the others 200 with 1 KiB read in full; every " + CLOSE_EVERY
                + "th answer on a connection carries Connection: close";
    }

    @Override
    public Map<String, Object> run(CaseContext c) throws Exception {
        StubServer stub = c.stub();
        URI uri = stub.uri();
        HttpClientAdapter adapter = c.adapter(uri, TIMEOUT);
        Map<String, Integer> warm = c.warmUp(adapter, uri);
        long acceptedBefore = stub.stats().accepted();
        long closedBefore = stub.tally().closeEveryCloses();
        Request error = Request.get(uri, "/?closeEvery=" + CLOSE_EVERY + "&status=500&bytes=" + UNREAD_BYTES, -1)
                .withBodyAbandoned();
        Request ok = Request.get(uri, "/?closeEvery=" + CLOSE_EVERY + "&bytes=1024", 1024);
        List<CaseRequests.Done> done = new ArrayList<>();
        long deadline = System.nanoTime() + BOUND.toNanos();
        for (int i = 0; i < REQUESTS && System.nanoTime() - deadline < 0; i++) {
            done.add(CaseRequests.sendAndWait(adapter, i % 2 == 0 ? error : ok, TIMEOUT.plusSeconds(1)));
        }
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("warmUp", warm);
        f.put("requests", REQUESTS);
        f.put("sent", done.size());
        f.put("bodiesLeftUnread", (done.size() + 1) / 2);
        f.put("outcomes", CaseRequests.classes(done));
        f.put("failures", CaseRequests.failures(done));
        f.put("said", CaseRequests.said(done));
        // The warm-up's connection is counted: the first requests ride on it.
        long opened = stub.stats().accepted() - acceptedBefore + 1;
        f.put("connectionsOpened", opened);
        f.put("connectionsPer1000", opened * 1_000 / Math.max(1, done.size()));
        f.put("closedByServer", stub.tally().closeEveryCloses() - closedBefore);
        return f;
    }
}
