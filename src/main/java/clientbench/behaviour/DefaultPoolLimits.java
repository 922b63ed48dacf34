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

/**
 * {@value #CALLERS} callers at once to one host, each answer {@value #DELAY_MS} ms away, the client at its library's
 * own pool and dispatcher limits: how many requests the stub held at once (a default of 5 per host holds 5 and queues
 * the rest, unseen), and how many the client refused. Read {@link #LOOK} after the sends, well before any answer.
 */
final class DefaultPoolLimits implements BehaviourCase {

    static final int CALLERS = 64;
    static final long DELAY_MS = 3_000;
    static final Duration LOOK = Duration.ofSeconds(2);

    @Override
    public String key() {
        return "default-pool";
    }

    @Override
    public Tuning tuning() {
        return Tuning.LIBRARY_LIMITS;
    }

    @Override
    public String provokes() {
        return CALLERS + " callers at once to one host, each answered after " + DELAY_MS + " ms, at the library's own"
                + " pool and dispatcher limits";
    }

    @Override
    public Map<String, Object> run(CaseContext c) throws Exception {
        StubServer stub = c.stub();
        URI uri = stub.uri();
        HttpClientAdapter adapter = c.adapter(uri, Duration.ofMillis(DELAY_MS).plusSeconds(2));
        Map<String, Integer> warm = c.warmUp(adapter, uri);
        List<CaseRequests.Call> calls = new ArrayList<>();
        for (int i = 0; i < CALLERS; i++) {
            calls.add(CaseRequests.send(adapter, c.get(uri, "/?delayMs=" + DELAY_MS, "c-" + i)));
        }
        CaseRequests.until(() -> stub.tally().inFlight() >= CALLERS, LOOK);
        List<CaseRequests.Done> early = calls.stream().map(CaseRequests.Call::now).filter(d -> d != null).toList();
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("warmUp", warm);
        f.put("callers", CALLERS);
        f.put("heldAtOnce", stub.tally().peakInFlight());
        f.put("connectionsOpened", stub.stats().accepted());
        f.put("reportedEarly", CaseRequests.classes(early));
        return f;
    }
}
