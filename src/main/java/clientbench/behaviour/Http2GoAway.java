package clientbench.behaviour;

import clientbench.api.HttpClientAdapter;
import clientbench.api.Protocol;
import clientbench.api.Tuning;
import clientbench.stub.StubOptions;
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
 * HTTP/2 (h2c) to a server allowing {@value #STREAMS} streams at once and sending a GOAWAY at every
 * {@value #GOAWAY_EVERY}th stream of a connection (the refused stream unprocessed, safe to send again):
 * {@value #CALLERS} callers, {@value #PER_CALLER} requests each in turn. The failures callers saw (streams refused past
 * the limit, or on the GOAWAY), requests processed twice, and connections opened.
 */
final class Http2GoAway implements BehaviourCase {

    static final int STREAMS = 10;
    static final int GOAWAY_EVERY = 1_000;
    static final int CALLERS = 30;
    static final int PER_CALLER = 70;
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Duration BOUND = Duration.ofSeconds(30);

    @Override
    public String key() {
        return "h2-goaway";
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
        return "h2c to a server allowing " + STREAMS + " concurrent streams and sending a GOAWAY at every " + GOAWAY_EVERY
                + "th stream; " + CALLERS + " callers, " + PER_CALLER + " requests each in turn";
    }

    @Override
    public Map<String, Object> run(CaseContext c) throws Exception {
        StubServer stub = c.stub(new StubOptions("127.0.0.1", 0, 1, false, false, STREAMS));
        URI uri = stub.uri();
        HttpClientAdapter adapter = c.adapter(uri, Protocol.H2C, TIMEOUT); // a client without HTTP/2 refuses here
        Map<String, Integer> warm = c.warmUp(adapter, uri);
        long deadline = System.nanoTime() + BOUND.toNanos();
        List<Future<List<Calls.Done>>> callers = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < CALLERS; i++) {
                int caller = i;
                callers.add(threads.submit(() -> {
                    List<Calls.Done> done = new ArrayList<>();
                    for (int j = 0; j < PER_CALLER && System.nanoTime() - deadline < 0; j++) {
                        done.add(Calls.sendAndWait(adapter, c.get(uri, "/?goAwayEvery=" + GOAWAY_EVERY,
                                "r-" + caller + "-" + j), TIMEOUT.plusSeconds(1)));
                    }
                    return done;
                }));
            }
        } // waits for every caller: each stops at the deadline
        List<Calls.Done> done = new ArrayList<>();
        for (Future<List<Calls.Done>> f : callers) {
            done.addAll(f.get());
        }
        StubServer.Tally tally = stub.tally();
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("warmUp", warm);
        f.put("requests", CALLERS * PER_CALLER);
        f.put("sent", done.size());
        f.put("outcomes", Calls.classes(done));
        f.put("failures", Calls.failures(done));
        f.put("said", Calls.said(done));
        f.putAll(Reads.of(stub, c.key("r-"), "request"));
        f.put("connectionsOpened", stub.stats().accepted());
        f.put("goAways", tally.goAways());
        f.put("refusedByGoAway", tally.refusedStreams());
        f.put("peakStreams", stub.stats().peakStreams());
        return f;
    }
}
