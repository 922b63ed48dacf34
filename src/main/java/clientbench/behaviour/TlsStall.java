package clientbench.behaviour;

import clientbench.api.AdapterConfig;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Protocol;
import clientbench.api.Tuning;
import clientbench.harness.record.Thresholds;
import clientbench.stub.HandshakeStall;
import clientbench.stub.StubOptions;
import clientbench.stub.StubServer;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * HTTPS requests whose TLS handshake the server holds up, {@value #REQUESTS} at once per way, both ways at once: it
 * never answers the ClientHello ({@code stall}), or answers a byte every {@value #TRICKLE_MS} ms ({@code trickle}).
 * A handshake timeout that bounds each read, not the handshake, never fires on the trickle (HTTPCLIENT-2386;
 * AsyncHttpClient/async-http-client#479: no handshake timeout at all). Per way: when each request ended, past its
 * library's own 1 s timeout, or that it had not {@link #WAIT} after its send; what the front and the stub saw.
 */
final class TlsStall implements BehaviourCase {

    static final Duration TIMEOUT = Duration.ofSeconds(1);
    /** Past this, a request has not ended: a timer is never that late on a busy machine (thresholds.json). */
    static final Duration WAIT = TIMEOUT.plusMillis(Thresholds.DEADLINE_LATE_MILLIS);
    static final int REQUESTS = 5;
    /**
     * A byte every 400 ms: well inside a per-read timeout of 1 s (the request's) or 2 s (the connect timeout), so
     * neither fires; the server's first flight (over 1,000 bytes) would take minutes, so a total timeout always does.
     */
    static final long TRICKLE_MS = 400;
    static final List<String> WAYS = List.of("stall", "trickle");

    @Override
    public String key() {
        return "tls-stall";
    }

    @Override
    public Tuning tuning() {
        return Tuning.LIBRARY_TIMEOUT;
    }

    @Override
    public String provokes() {
        return REQUESTS + " HTTPS requests at once each way with a " + TIMEOUT.toMillis() + " ms request timeout, the"
                + " library's own, and the suite's " + AdapterConfig.DEFAULT_CONNECT_TIMEOUT.toMillis() + " ms connect"
                + " timeout; the server accepts the TCP connection, then never answers the ClientHello (stall) or"
                + " answers a byte every " + TRICKLE_MS + " ms (trickle): a per-read handshake timeout never fires on"
                + " the trickle, a total one does";
    }

    @Override
    public Map<String, Object> run(CaseContext c) throws Exception {
        StubServer stub = c.stub(StubOptions.loopback().withTls(true));
        URI uri = stub.uri();
        HttpClientAdapter adapter = c.adapter(uri, Protocol.HTTPS1, TIMEOUT);
        Map<String, Integer> warm = c.warmUp(adapter, uri);
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("warmUp", warm);
        f.put("requests", REQUESTS);
        f.put("timeoutMs", TIMEOUT.toMillis());
        f.put("connectTimeoutMs", AdapterConfig.DEFAULT_CONNECT_TIMEOUT.toMillis());
        f.put("timeoutKind", adapter.settings().getOrDefault("timeoutKind", "unknown"));
        f.put("waitedMs", WAIT.toMillis());
        f.put("trickleMs", TRICKLE_MS);
        try (HandshakeStall stall = HandshakeStall.stall();
             HandshakeStall trickle = HandshakeStall.trickle(uri, TRICKLE_MS)) {
            Map<String, HandshakeStall> fronts = Map.of("stall", stall, "trickle", trickle);
            List<CaseRequests.Call> calls = new ArrayList<>();
            for (String way : WAYS) {
                for (int i = 0; i < REQUESTS; i++) {
                    calls.add(CaseRequests.send(adapter, c.get(fronts.get(way).uri(), "/?bytes=5", way + "-" + i)));
                }
            }
            List<CaseRequests.Done> done = CaseRequests.awaitAll(calls, WAIT);
            for (int w = 0; w < WAYS.size(); w++) {
                String way = WAYS.get(w);
                List<CaseRequests.Done> mine = done.subList(w * REQUESTS, (w + 1) * REQUESTS);
                HandshakeStall.Counts seen = fronts.get(way).counts();
                Map<String, Object> byWay = new LinkedHashMap<>();
                byWay.put("connections", seen.connections());
                byWay.put("helloes", seen.helloes());
                byWay.put("bytesTrickled", seen.bytesTrickled());
                byWay.putAll(StubReadCounts.of(stub, c.key(way + "-"), "stub"));
                byWay.put("outcomes", CaseRequests.classes(mine));
                byWay.put("said", CaseRequests.said(mine));
                List<Double> lateMs = mine.stream().filter(CaseRequests.Done::reported)
                        .map(d -> d.millis() - TIMEOUT.toMillis()).toList();
                byWay.put("ended", lateMs.size());
                byWay.put("lateMsP50", lateMs.isEmpty() ? null : CaseRequests.quantile(lateMs, 0.5));
                byWay.put("lateMsMax", lateMs.isEmpty() ? null : CaseRequests.quantile(lateMs, 1.0));
                f.put(way, byWay);
            }
        }
        return f;
    }
}
