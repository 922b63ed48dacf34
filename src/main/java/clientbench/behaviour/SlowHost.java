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
import java.util.TreeMap;

/**
 * One client, {@value #SLOW_HOSTS} slow hosts and a fast one: {@value #SLOW_PER_HOST} callers at once to each slow host
 * (answers {@value #SLOW_DELAY_MS} ms away), then {@value #FAST_REQUESTS} requests to the fast host,
 * {@value #FAST_SPACING_MS} ms apart, at the library's own limits. The slow callers exceed every per-host default and,
 * together, a total limit (OkHttp's 64, Apache's 25): a client whose total is shared by all hosts makes the fast wait.
 */
final class SlowHost implements BehaviourCase {

    static final int SLOW_HOSTS = 16;
    static final int SLOW_PER_HOST = 8;
    static final long SLOW_DELAY_MS = 3_000;
    static final int FAST_REQUESTS = 100;
    static final long FAST_SPACING_MS = 10;
    /** The fast host; the slow ones are 127.0.0.10 and up: host names, not ports, as OkHttp counts a host. */
    static final String FAST_HOST = "127.0.0.2";
    static final int FIRST_SLOW_OCTET = 10;
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
        return SLOW_PER_HOST + " callers at once to each of " + SLOW_HOSTS + " hosts answering after " + SLOW_DELAY_MS
                + " ms (" + SLOW_HOSTS * SLOW_PER_HOST + " in all), then " + FAST_REQUESTS + " requests " + FAST_SPACING_MS
                + " ms apart to another host answering at once, on one client at the library's own limits";
    }

    @Override
    public Map<String, Object> run(CaseContext c) throws Exception {
        List<StubServer> slow = new ArrayList<>();
        for (int i = 0; i < SLOW_HOSTS; i++) {
            slow.add(c.stub(new StubOptions("127.0.0." + (FIRST_SLOW_OCTET + i), 0, 1, false, false)));
        }
        StubServer fast = c.stub(new StubOptions(FAST_HOST, 0, 1, false, false));
        HttpClientAdapter adapter = c.adapter(slow.get(0).uri(), Duration.ofMillis(SLOW_DELAY_MS).plusSeconds(2));
        Map<String, Integer> warm = new TreeMap<>(c.warmUp(adapter, slow.get(0).uri()));
        c.warmUp(adapter, fast.uri()).forEach((k, n) -> warm.merge(k, n, Integer::sum));
        List<Calls.Call> slowCalls = new ArrayList<>();
        for (int i = 0; i < SLOW_PER_HOST; i++) { // round robin: each host's callers spread over the sends
            for (int h = 0; h < SLOW_HOSTS; h++) {
                slowCalls.add(Calls.send(adapter, c.get(slow.get(h).uri(), "/?delayMs=" + SLOW_DELAY_MS, "slow-" + h + "-" + i)));
            }
        }
        Thread.sleep(HEAD_START.toMillis());
        int slowHeld = slow.stream().mapToInt(s -> s.tally().inFlight()).sum();
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
        f.put("slowHosts", SLOW_HOSTS);
        f.put("slowCallers", SLOW_HOSTS * SLOW_PER_HOST);
        f.put("slowHeldAtOnce", slowHeld);
        f.put("slowConnectionsOpened", slow.stream().mapToLong(s -> s.stats().accepted()).sum());
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
