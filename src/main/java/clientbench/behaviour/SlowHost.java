package clientbench.behaviour;

import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Tuning;
import clientbench.stub.StubOptions;
import clientbench.stub.StubServer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One client, two hosts: {@value #SLOW_CALLERS} callers at once to a slow one (answers {@value #SLOW_DELAY_MS} ms
 * away), then {@value #FAST_REQUESTS} requests to a fast one, {@value #FAST_SPACING_MS} ms apart, at the library's own
 * limits: the fast host's latency, p50 and p99. A pool or dispatcher limit shared by both hosts makes the fast requests
 * wait for the slow ones.
 */
final class SlowHost implements BehaviourCase {

    static final int SLOW_CALLERS = 64;
    static final long SLOW_DELAY_MS = 3_000;
    static final int FAST_REQUESTS = 100;
    static final long FAST_SPACING_MS = 10;
    /** The fast host: another loopback address than the slow one's 127.0.0.1. */
    static final String FAST_HOST = "127.0.0.2";
    /** The slow requests are sent, and hold what they can, before the first fast one. */
    static final Duration HEAD_START = Duration.ofMillis(200);

    @Override
    public String key() {
        return "slow-host";
    }

    @Override
    public Tuning tuning() {
        return Tuning.LIBRARY_LIMITS;
    }

    @Override
    public String provokes() {
        return SLOW_CALLERS + " callers at once to a host answering after " + SLOW_DELAY_MS + " ms, then "
                + FAST_REQUESTS + " requests " + FAST_SPACING_MS + " ms apart to another answering at once, on one client"
                + " at the library's own limits";
    }

    @Override
    public Map<String, Object> run(CaseContext c) throws Exception {
        StubServer slow = c.stub();
        // Another host, not only another port: OkHttp's per-host limit counts host names.
        StubServer fast = c.stub(new StubOptions(FAST_HOST, 0, 1, false, false));
        HttpClientAdapter adapter = c.adapter(slow.uri(), Duration.ofMillis(SLOW_DELAY_MS).plusSeconds(2));
        Map<String, Integer> warm = new java.util.TreeMap<>(c.warmUp(adapter, slow.uri()));
        c.warmUp(adapter, fast.uri()).forEach((k, n) -> warm.merge(k, n, Integer::sum));
        List<Calls.Call> slowCalls = new ArrayList<>();
        for (int i = 0; i < SLOW_CALLERS; i++) {
            slowCalls.add(Calls.send(adapter, c.get(slow.uri(), "/?delayMs=" + SLOW_DELAY_MS, "slow-" + i)));
        }
        Thread.sleep(HEAD_START.toMillis());
        List<Calls.Call> fastCalls = new ArrayList<>();
        for (int i = 0; i < FAST_REQUESTS; i++) {
            fastCalls.add(Calls.send(adapter, c.get(fast.uri(), "/?bytes=5", "fast-" + i)));
            Thread.sleep(FAST_SPACING_MS);
        }
        List<Calls.Done> done = Calls.awaitAll(fastCalls, Duration.ofMillis(SLOW_DELAY_MS).plusSeconds(1));
        List<Double> ms = done.stream().map(Calls.Done::millis).toList(); // unreported: a lower bound
        // A fast request held back by the slow ones can only end after one of them was answered (a refusal is no
        // answer): counted, not timed.
        long firstSlowAnswer = slowCalls.stream().filter(s -> s.now() != null && s.now().outcome() == Outcome.OK)
                .mapToLong(s -> s.startNanos() + s.now().elapsedNanos()).min().orElse(Long.MAX_VALUE);
        long waited = 0;
        for (int i = 0; i < fastCalls.size(); i++) {
            Calls.Done d = done.get(i);
            if (!d.reported() || fastCalls.get(i).startNanos() + d.elapsedNanos() >= firstSlowAnswer) {
                waited++;
            }
        }
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("warmUp", warm);
        f.put("slowCallers", SLOW_CALLERS);
        f.put("slowHeldAtOnce", slow.tally().peakInFlight());
        f.put("fastRequests", FAST_REQUESTS);
        f.put("fastOutcomes", Calls.classes(done));
        f.put("fastAfterASlowAnswer", waited);
        f.put("said", Calls.said(done));
        f.put("fastP50Ms", Calls.quantile(ms, 0.5));
        f.put("fastP99Ms", Calls.quantile(ms, 0.99));
        f.put("fastMaxMs", Calls.quantile(ms, 1.0));
        return f;
    }
}
