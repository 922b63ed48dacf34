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
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * 1,000 requests to a server that never answers, each timing out at 1 s ({@value #IN_FLIGHT} at a time, so some wait
 * in the client's queue), then what is left: connections still open that carry a dead exchange (the stub holds their
 * unanswered request), and whether {@value #AFTER} ordinary requests at once then pass: a leaked pool permit or
 * connection makes them wait past their own timeout.
 */
final class TimeoutLeaks implements BehaviourCase {

    static final int REQUESTS = 1_000;
    static final int IN_FLIGHT = 500;
    static final int AFTER = 64;
    static final Duration TIMEOUT = Duration.ofSeconds(1);
    /** A client closes a timed-out connection within milliseconds; one still open after this has leaked it. */
    static final Duration SETTLE = Duration.ofSeconds(3);
    private static final Duration BOUND = Duration.ofSeconds(30);

    @Override
    public String key() {
        return "timeout-leaks";
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
        return REQUESTS + " requests never answered, " + IN_FLIGHT + " at a time, each with a " + TIMEOUT.toMillis()
                + " ms timeout; then " + AFTER + " ordinary requests at once";
    }

    @Override
    public Map<String, Object> run(CaseContext c) throws Exception {
        StubServer stub = c.stub();
        URI uri = stub.uri();
        HttpClientAdapter adapter = c.adapter(uri, TIMEOUT);
        Map<String, Integer> warm = c.warmUp(adapter, uri);
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        List<CaseRequests.Call> calls = new ArrayList<>();
        long deadline = System.nanoTime() + BOUND.toNanos();
        for (int i = 0; i < REQUESTS; i++) {
            if (!inFlight.tryAcquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                break; // the client stopped reporting: what was sent is counted, the rest unsent
            }
            CaseRequests.Call call = CaseRequests.send(adapter, c.get(uri, "/?fault=never", "t-" + i));
            call.reported().whenComplete((d, e) -> inFlight.release());
            calls.add(call);
        }
        Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
        List<CaseRequests.Done> timedOut = CaseRequests.awaitAll(calls, left);
        long settleStart = System.nanoTime();
        CaseRequests.until(() -> stub.tally().inFlight() == 0, SETTLE);
        long settledMs = (System.nanoTime() - settleStart) / 1_000_000;
        int deadLeft = stub.tally().inFlight();
        int openLeft = stub.openConnections();
        List<CaseRequests.Call> after = new ArrayList<>();
        for (int i = 0; i < AFTER; i++) {
            after.add(CaseRequests.send(adapter, c.get(uri, "/?bytes=5", "a-" + i)));
        }
        List<CaseRequests.Done> then = CaseRequests.awaitAll(after, TIMEOUT.plusSeconds(2));
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("warmUp", warm);
        f.put("requests", REQUESTS);
        f.put("sent", calls.size());
        f.put("outcomes", CaseRequests.classes(timedOut));
        List<Double> lateMs = CaseRequests.lateMs(timedOut, TIMEOUT);
        f.put("lateMsP50", lateMs.isEmpty() ? null : CaseRequests.quantile(lateMs, 0.5));
        f.put("lateMsMax", lateMs.isEmpty() ? null : CaseRequests.quantile(lateMs, 1.0));
        f.put("deadConnectionsLeft", deadLeft);
        f.put("idleConnectionsLeft", openLeft - deadLeft);
        f.put("settledMs", settledMs);
        f.put("afterRequests", AFTER);
        f.put("afterOutcomes", CaseRequests.classes(then));
        f.put("said", CaseRequests.said(java.util.stream.Stream.concat(timedOut.stream(), then.stream()).toList()));
        f.put("afterMaxMs", then.stream().mapToDouble(CaseRequests.Done::millis).max().orElse(Double.NaN));
        return f;
    }
}
