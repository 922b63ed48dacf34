package clientbench.behaviour;

import clientbench.api.HttpClientAdapter;
import clientbench.api.Tuning;
import clientbench.harness.Thresholds;
import clientbench.stub.StubServer;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A 1 s request timeout against a server that never answers, sends the head and half the body then stalls, or
 * trickles the body a byte a second: how late the deadline fired (p50, max over the requests), and how many had not
 * fired {@link #WAIT} after their send (a timeout that ends at the headers never fires on a body).
 */
final class Deadline implements BehaviourCase {

    static final Duration TIMEOUT = Duration.ofSeconds(1);
    /** Past this, a deadline has not fired: a timer is never that late on a busy machine (thresholds.json). */
    static final Duration WAIT = TIMEOUT.plusMillis(Thresholds.DEADLINE_LATE_MILLIS);
    static final int REQUESTS = 10;

    /** never, stall or trickle. */
    private final String mode;

    Deadline(String mode) {
        this.mode = mode;
    }

    @Override
    public String key() {
        return "deadline-" + mode;
    }

    @Override
    public Tuning tuning() {
        return Tuning.AS_SHIPPED;
    }

    @Override
    public String provokes() {
        return REQUESTS + " requests at once with a " + TIMEOUT.toMillis() + " ms request timeout; the server " + switch (mode) {
            case "never" -> "reads each request and never answers";
            case "stall" -> "sends the head and half of a 1,000-byte body, then nothing";
            default -> "sends the head, then a 10-byte body a byte a second";
        };
    }

    private String query() {
        return switch (mode) {
            case "never" -> "/?fault=never";
            case "stall" -> "/?fault=stall&bytes=1000";
            default -> "/?fault=trickle&bytes=10";
        };
    }

    @Override
    public Map<String, Object> run(CaseContext c) throws Exception {
        StubServer stub = c.stub();
        URI uri = stub.uri();
        HttpClientAdapter adapter = c.adapter(uri, TIMEOUT);
        Map<String, Integer> warm = c.warmUp(adapter, uri);
        List<Calls.Call> calls = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            calls.add(Calls.send(adapter, c.get(uri, query(), "r-" + i)));
        }
        List<Calls.Done> done = Calls.awaitAll(calls, WAIT);
        List<Double> lateMs = Calls.lateMs(done, TIMEOUT);
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("warmUp", warm);
        f.put("requests", REQUESTS);
        f.put("timeoutMs", TIMEOUT.toMillis());
        f.put("waitedMs", WAIT.toMillis());
        f.put("outcomes", Calls.classes(done));
        f.put("said", Calls.said(done));
        f.put("fired", done.stream().filter(Calls.Done::reported).count());
        f.put("lateMsP50", Double.isNaN(Calls.quantile(lateMs, 0.5)) ? null : Calls.quantile(lateMs, 0.5));
        f.put("lateMsMax", lateMs.isEmpty() ? null : Calls.quantile(lateMs, 1.0));
        return f;
    }
}
