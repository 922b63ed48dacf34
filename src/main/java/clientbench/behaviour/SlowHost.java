package clientbench.behaviour;

import clientbench.api.HttpClientAdapter;
import clientbench.api.Tuning;
import clientbench.stub.StubOptions;
import clientbench.stub.StubServer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * One client, {@value #SLOW_HOSTS} slow hosts and a fast one: {@value #SLOW_PER_HOST} callers at once to each slow host,
 * whose answers wait until the fast host's requests are in, then {@value #FAST_REQUESTS} requests to the fast host,
 * {@value #FAST_SPACING_MS} ms apart, at the library's own limits. The slow callers exceed every per-host default and,
 * together, a total limit (OkHttp's 64, Apache's 25): a client whose total is shared by all hosts makes the fast wait.
 */
final class SlowHost implements BehaviourCase {

    static final int SLOW_HOSTS = 16;
    static final int SLOW_PER_HOST = 8;
    static final int FAST_REQUESTS = 100;
    static final long FAST_SPACING_MS = 10;
    /** The fast host; the slow ones are 127.0.0.10 and up: host names, not ports, as OkHttp counts a host. */
    static final String FAST_HOST = "127.0.0.2";
    static final int FIRST_SLOW_OCTET = 10;
    /**
     * Requests still unanswered once nothing moved this long (none reached a stub, none was reported) wait on the
     * client: a loopback exchange on a free connection comes far sooner, on a busy machine too.
     */
    static final Duration QUIET = Duration.ofSeconds(3);
    /** The most each wait lasts: the slow requests reaching their hosts, the fast ones answered before the release. */
    static final Duration WAIT_BOUND = Duration.ofSeconds(8);
    /** Past the case's end: no timeout ends a request held behind the slow hosts while the case looks. */
    static final Duration TIMEOUT = Duration.ofSeconds(30);

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
        return SLOW_PER_HOST + " callers at once to each of " + SLOW_HOSTS + " hosts answering only once the fast host's"
                + " requests are in (" + SLOW_HOSTS * SLOW_PER_HOST + " in all), then " + FAST_REQUESTS + " requests "
                + FAST_SPACING_MS + " ms apart to another host answering at once, on one client at the library's own limits";
    }

    @Override
    public Map<String, Object> run(CaseContext c) throws Exception {
        List<StubServer> slow = new ArrayList<>();
        for (int i = 0; i < SLOW_HOSTS; i++) {
            slow.add(c.stub(new StubOptions("127.0.0." + (FIRST_SLOW_OCTET + i), 0, 1, false, false)));
        }
        StubServer fast = c.stub(new StubOptions(FAST_HOST, 0, 1, false, false));
        HttpClientAdapter adapter = c.adapter(slow.get(0).uri(), TIMEOUT);
        Map<String, Integer> warm = new TreeMap<>(c.warmUp(adapter, slow.get(0).uri()));
        c.warmUp(adapter, fast.uri()).forEach((k, n) -> warm.merge(k, n, Integer::sum));
        for (int i = 0; i < SLOW_PER_HOST; i++) { // round robin: each host's callers spread over the sends
            for (int h = 0; h < SLOW_HOSTS; h++) {
                CaseRequests.send(adapter, c.get(slow.get(h).uri(), "/?hold=true", "slow-" + h + "-" + i));
            }
        }
        // The slow requests hold what they can before the first fast one: each reached its host, or none moved.
        LongSupplier slowRead = () -> slow.stream().mapToLong(s -> s.seen(c.key("slow-")).size()).sum();
        CaseRequests.untilSettled(() -> slowRead.getAsLong() == SLOW_HOSTS * SLOW_PER_HOST, () -> true, slowRead, QUIET,
                WAIT_BOUND);
        int slowHeld = slow.stream().mapToInt(s -> s.tally().inFlight()).sum();
        List<CaseRequests.Call> fastCalls = new ArrayList<>();
        for (int i = 0; i < FAST_REQUESTS; i++) {
            fastCalls.add(CaseRequests.send(adapter, c.get(fast.uri(), "/?bytes=5", "fast-" + i)));
            Thread.sleep(FAST_SPACING_MS);
        }
        // A fast request held back by the slow ones ends only after one of them was answered: those still unanswered
        // when the slow hosts answer, once every fast one not held was (counted, not timed).
        long waited = CaseRequests.awaitSettled(fastCalls, () -> fast.seen(c.key("fast-")).keySet(), QUIET, WAIT_BOUND).stream()
                .filter(d -> !d.reported()).count();
        slow.forEach(StubServer::releaseHeld);
        List<CaseRequests.Done> done = CaseRequests.awaitAll(fastCalls, WAIT_BOUND);
        List<Double> ms = done.stream().map(CaseRequests.Done::millis).toList(); // unreported: a lower bound
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("warmUp", warm);
        f.put("slowHosts", SLOW_HOSTS);
        f.put("slowCallers", SLOW_HOSTS * SLOW_PER_HOST);
        f.put("slowHeldAtOnce", slowHeld);
        f.put("slowConnectionsOpened", slow.stream().mapToLong(s -> s.stats().accepted()).sum());
        f.put("fastRequests", FAST_REQUESTS);
        f.put("fastOutcomes", CaseRequests.classes(done));
        f.put("fastAfterASlowAnswer", waited);
        f.put("said", CaseRequests.said(done));
        f.put("fastP50Ms", CaseRequests.quantile(ms, 0.5));
        f.put("fastP99Ms", CaseRequests.quantile(ms, 0.99));
        f.put("fastMaxMs", CaseRequests.quantile(ms, 1.0));
        return f;
    }
}
