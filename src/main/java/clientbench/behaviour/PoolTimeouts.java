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
 * The pool as the library ships it, after timeouts: {@value #CALLERS} callers at once to a host that never answers,
 * past the per-host defaults (5 for OkHttp, Apache and Vert.x, 16 for Reactor Netty), so that most wait for a slot
 * while the first ones time out at 1 s. Before and after, ordinary requests each held
 * {@value #HOLD_MS} ms: the most the stub holds at once is the slots the pool serves, by the stub's count
 * (reactor/reactor-netty#3110 and #3804: a timeout leaving a slot or a pending acquire behind, the pool exhausted).
 * On the library's own timeout; {@code pool-timeouts-suite} on the suite's timer over the whole exchange, which fires
 * on callers still waiting for a slot, as it hands over.
 */
final class PoolTimeouts implements BehaviourCase {

    static final int CALLERS = 20;
    static final Duration TIMEOUT = Duration.ofSeconds(1);
    /**
     * An ordinary request's answer: well inside the timeout, so that {@value #CALLERS} in waves of 5 pass
     * whatever their client's timeout covers (4 x 150 ms), and long enough for the stub to see a wave held at once.
     */
    static final long HOLD_MS = 150;
    /** A client closes a timed-out connection within milliseconds; one held past this carries a dead exchange. */
    static final Duration SETTLE = Duration.ofSeconds(2);
    /** The callers, 4 waves of 5 on a timeout that starts once a slot is had, are all reported well within it. */
    private static final Duration TIMEOUTS_BOUND = Duration.ofSeconds(12);
    private static final Duration HELD_BOUND = Duration.ofSeconds(4);

    private final Tuning tuning;

    /** On the library's own limits and timeout. */
    PoolTimeouts() {
        this(Tuning.LIBRARY_LIMITS_AND_TIMEOUT);
    }

    private PoolTimeouts(Tuning tuning) {
        this.tuning = tuning;
    }

    /** On the library's own limits and the suite's timeout, as the benchmarks set it. */
    static PoolTimeouts suite() {
        return new PoolTimeouts(Tuning.LIBRARY_LIMITS);
    }

    @Override
    public String key() {
        return "pool-timeouts" + (tuning.libraryTimeout() ? "" : "-suite");
    }

    @Override
    public boolean busy() {
        return true;
    }

    @Override
    public Tuning tuning() {
        return tuning;
    }

    @Override
    public String provokes() {
        return CALLERS + " callers at once to a server that never answers, at the library's own pool limits, with a "
                + TIMEOUT.toMillis() + " ms timeout, " + (tuning.libraryTimeout() ? "the library's own"
                : "the suite's as the benchmarks set it") + "; before and after, ordinary requests each held " + HOLD_MS
                + " ms: the most the server held at once is the slots the pool serves";
    }

    @Override
    public Map<String, Object> run(CaseContext c) throws Exception {
        StubServer stub = c.stub();
        URI uri = stub.uri();
        HttpClientAdapter adapter = c.adapter(uri, TIMEOUT);
        Map<String, Integer> warm = c.warmUp(adapter, uri);
        Held before = held(c, stub, adapter, CALLERS, "b-");
        long start = System.nanoTime();
        List<CaseRequests.Call> calls = new ArrayList<>();
        for (int i = 0; i < CALLERS; i++) {
            calls.add(CaseRequests.send(adapter, c.get(uri, "/?fault=never", "t-" + i)));
        }
        List<CaseRequests.Done> timedOut = CaseRequests.awaitAll(calls, TIMEOUTS_BOUND);
        long timeoutsMs = (System.nanoTime() - start) / 1_000_000;
        CaseRequests.until(() -> stub.tally().inFlight() == 0, SETTLE);
        int deadLeft = stub.tally().inFlight();
        Held after = held(c, stub, adapter, before.slots, "a-");
        int read = stub.seen(c.key("t-")).size(); // after the wave: a request written as it timed out is read by now
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("warmUp", warm);
        f.put("timeoutKind", adapter.settings().getOrDefault("timeoutKind", "unknown"));
        f.put("slotsBefore", before.slots);
        f.put("beforeOutcomes", CaseRequests.classes(before.done));
        f.put("callers", CALLERS);
        f.put("outcomes", CaseRequests.classes(timedOut));
        f.put("timeoutsMs", timeoutsMs);
        f.put("stubRead", read);
        f.put("neverSent", CALLERS - read);
        f.put("deadConnectionsLeft", deadLeft);
        f.put("afterRequests", before.slots);
        f.put("slotsAfter", after.slots);
        f.put("afterOutcomes", CaseRequests.classes(after.done));
        f.put("said", CaseRequests.said(java.util.stream.Stream.concat(timedOut.stream(), after.done.stream()).toList()));
        f.put("afterMaxMs", after.done.stream().mapToDouble(CaseRequests.Done::millis).max().orElse(Double.NaN));
        return f;
    }

    /** What {@link #held} saw: the most requests the stub held at once, and each request's report. */
    private record Held(int slots, List<CaseRequests.Done> done) {
    }

    /**
     * {@code n} ordinary requests at once, each answered after {@value #HOLD_MS} ms: the most the stub held at once is
     * the slots the pool serves (its own count of one request each, where the timeouts' closes can overlap new ones),
     * less those it held before the wave. The stub's own peak, not a sampling of it: a busy machine can pause a sampler
     * past the moment all were held.
     */
    private static Held held(CaseContext c, StubServer stub, HttpClientAdapter adapter, int n, String what)
            throws InterruptedException {
        URI uri = stub.uri();
        int dead = stub.tally().inFlight(); // requests a timed-out exchange left held: not this wave's
        stub.restartPeakInFlight();
        List<CaseRequests.Call> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            calls.add(CaseRequests.send(adapter, c.get(uri, "/?delayMs=" + HOLD_MS, what + i)));
        }
        List<CaseRequests.Done> done = CaseRequests.awaitAll(calls, HELD_BOUND);
        return new Held(stub.tally().peakInFlight() - dead, done);
    }
}
