package clientbench.behaviour;

import clientbench.api.HttpClientAdapter;
import clientbench.api.Protocol;
import clientbench.api.Request;
import clientbench.api.Tuning;
import clientbench.harness.record.Thresholds;
import clientbench.stub.StubServer;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiFunction;

/**
 * HTTP/2 (h2c) flow control both ways, {@value #CALLERS} requests at once on one connection, {@value #PER_CALLER} in
 * turn each. Down: bodies of {@value #DOWN_BYTES} bytes, past the clients' windows, so the client must send
 * WINDOW_UPDATEs as it reads (square/okhttp#6749: streams stalled by updates that came too late). Up: bodies of
 * {@value #UP_BYTES} bytes to a stub reading 16 KiB every {@value #READ_PAUSE_MS} ms, its windows (64 KiB, the
 * connection's shared by every stream) reopening that late, so the client must wait and resume (JDK-8293786). A request
 * not reported within {@link #WAIT} hung; the stub counts the updates, its pauses and the windows a client overran.
 */
final class Http2FlowControl implements BehaviourCase {

    static final int CALLERS = 4;
    static final int PER_CALLER = 2;
    static final int DOWN_BYTES = 12 * 1024 * 1024;
    static final int UP_BYTES = 512 * 1024;
    static final int READ_PAUSE_MS = 10;
    static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Duration SETTLE = Duration.ofSeconds(1);
    /** Past this a request has hung: a timer is never that late on a busy machine (thresholds.json). */
    static final Duration WAIT = TIMEOUT.plusMillis(Thresholds.DEADLINE_LATE_MILLIS);

    @Override
    public String key() {
        return "h2-flow";
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
        return "h2c, " + CALLERS + " requests at once on a connection, " + PER_CALLER + " in turn each: responses of "
                + DOWN_BYTES / (1024 * 1024) + " MiB; then uploads of " + UP_BYTES / 1024 + " KiB to a server reading"
                + " 16 KiB every " + READ_PAUSE_MS + " ms, its 64 KiB windows reopened that late";
    }

    @Override
    public Map<String, Object> run(CaseContext c) throws Exception {
        byte[] upload = new byte[UP_BYTES];
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("timeoutMs", TIMEOUT.toMillis());
        f.put("waitedMs", WAIT.toMillis());
        f.put("down", part(c, "down-", (uri, key) -> Request.get(uri, "/?bytes=" + DOWN_BYTES, DOWN_BYTES)
                .withHeaders(List.of(new Request.Header(CaseContext.KEY, key)))));
        f.put("up", part(c, "up-", (uri, key) -> Request.post(uri, "/?bytes=5&readPauseMs=" + READ_PAUSE_MS, upload,
                5).withHeaders(List.of(new Request.Header(CaseContext.KEY, key)))));
        return f;
    }

    /**
     * {@link #CALLERS} callers at once, {@link #PER_CALLER} requests each in turn, on a stub and a client of the part's
     * own (one part's stalled streams cannot hold the other's); the outcomes and the stub's counts.
     */
    private static Map<String, Object> part(CaseContext c, String prefix, BiFunction<URI, String, Request> request)
            throws Exception {
        StubServer stub = c.stub();
        URI uri = stub.uri();
        HttpClientAdapter adapter = c.adapter(uri, Protocol.H2C, TIMEOUT);
        Map<String, Integer> warm = c.warmUp(adapter, uri);
        StubServer.Tally before = stub.tally();
        List<Future<List<CaseRequests.Done>>> running = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < CALLERS; i++) {
                int caller = i;
                running.add(threads.submit(() -> {
                    List<CaseRequests.Done> done = new ArrayList<>();
                    for (int j = 0; j < PER_CALLER; j++) {
                        Request r = request.apply(uri, c.key(prefix + caller + "-" + j));
                        CaseRequests.Done d = CaseRequests.sendAndWait(adapter, r, WAIT);
                        done.add(d);
                        if (!d.reported()) {
                            break; // hung: the caller would wait on it, and the stall is counted
                        }
                    }
                    return done;
                }));
            }
        } // waits for every caller: each waits at most WAIT per request
        List<CaseRequests.Done> done = new ArrayList<>();
        for (Future<List<CaseRequests.Done>> r : running) {
            done.addAll(r.get());
        }
        // An answer the client already has may still await its write's completion on the stub's loop: let it settle.
        CaseRequests.until(() -> stub.tally().answersUnsent() == 0, SETTLE);
        StubServer.Tally after = stub.tally();
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("warmUp", warm);
        f.put("requests", CALLERS * PER_CALLER);
        f.put("sent", done.size());
        f.put("outcomes", CaseRequests.classes(done));
        f.put("failures", CaseRequests.failures(done));
        f.put("said", CaseRequests.said(done));
        OptionalDouble latest = done.stream().filter(CaseRequests.Done::reported).mapToDouble(CaseRequests.Done::millis).max();
        f.put("reportedMsMax", latest.isPresent() ? latest.getAsDouble() : null);
        f.putAll(StubReadCounts.of(stub, c.key(prefix), "stub"));
        f.put("windowUpdatesIn", after.windowUpdatesIn() - before.windowUpdatesIn());
        f.put("windowUpdatesOut", after.windowUpdatesOut() - before.windowUpdatesOut());
        f.put("readPauses", after.readPauses() - before.readPauses());
        f.put("pausedBodies", after.pausedBodies() - before.pausedBodies());
        f.put("pausedBodyBytes", after.pausedBodyBytes() - before.pausedBodyBytes());
        f.put("flowControlErrors", after.flowControlErrors() - before.flowControlErrors());
        f.put("answersUnsent", after.answersUnsent()); // past every wait: held back by a window the client kept shut
        f.put("connectionsOpened", stub.stats().accepted());
        return f;
    }
}
