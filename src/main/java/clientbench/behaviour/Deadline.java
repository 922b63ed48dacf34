package clientbench.behaviour;

import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Tuning;
import clientbench.harness.record.Thresholds;
import clientbench.stub.StubServer;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A 1 s request timeout against a server that never answers, sends the head and half the body then stalls, or
 * trickles the body: how late the deadline fired (p50, max over the requests), how many had not fired {@link #WAIT}
 * after their send, and whose timeout it was ({@code timeoutKind}, from the adapter's settings). The three run on the
 * library's own timeout; {@code deadline-suite} runs the trickle on the suite's, as the benchmarks do: the fallback a
 * team writes where the library's own timeout does not cover the body.
 */
final class Deadline implements BehaviourCase {

    static final Duration TIMEOUT = Duration.ofSeconds(1);
    /** Past this, a deadline has not fired: a timer is never that late on a busy machine (thresholds.json). */
    static final Duration WAIT = TIMEOUT.plusMillis(Thresholds.DEADLINE_LATE_MILLIS);
    static final int REQUESTS = 10;
    /**
     * The trickle: a byte every 400 ms, well inside a per-read timeout of 1 s, so that it never fires; 10 bytes, 4 s
     * in all, past {@link #WAIT}, so that a total timeout always does.
     */
    static final long TRICKLE_MS = 400;
    static final int TRICKLE_BYTES = 10;

    /** never, stall or trickle. */
    private final String mode;
    private final Tuning tuning;

    /** The case on the library's own timeout. */
    Deadline(String mode) {
        this(mode, Tuning.LIBRARY_TIMEOUT);
    }

    private Deadline(String mode, Tuning tuning) {
        this.mode = mode;
        this.tuning = tuning;
    }

    /** The trickle on the suite's timeout, as the benchmarks set it. */
    static Deadline suite() {
        return new Deadline("trickle", Tuning.AS_SHIPPED);
    }

    @Override
    public String key() {
        return "deadline-" + (tuning.libraryTimeout() ? mode : "suite");
    }

    @Override
    public Tuning tuning() {
        return tuning;
    }

    @Override
    public String provokes() {
        return REQUESTS + " requests at once with a " + TIMEOUT.toMillis() + " ms request timeout, "
                + (tuning.libraryTimeout() ? "the library's own" : "the suite's as the benchmarks set it") + "; the server "
                + switch (mode) {
            case "never" -> "reads each request and never answers";
            case "stall" -> "sends the head and half of a 1,000-byte body, then nothing";
            default -> "sends the head, then a " + TRICKLE_BYTES + "-byte body a byte every " + TRICKLE_MS + " ms ("
                    + TRICKLE_BYTES * TRICKLE_MS / 1000.0 + " s in all): a per-read timeout never fires, a total one does";
        };
    }

    private String query() {
        return switch (mode) {
            case "never" -> "/?fault=never";
            case "stall" -> "/?fault=stall&bytes=1000";
            default -> "/?fault=trickle&bytes=" + TRICKLE_BYTES + "&trickleMs=" + TRICKLE_MS;
        };
    }

    @Override
    public Map<String, Object> run(CaseContext c) throws Exception {
        StubServer stub = c.stub();
        URI uri = stub.uri();
        HttpClientAdapter adapter = c.adapter(uri, TIMEOUT);
        Map<String, Integer> warm = c.warmUp(adapter, uri);
        List<CaseRequests.Call> calls = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            calls.add(CaseRequests.send(adapter, c.get(uri, query(), "r-" + i)));
        }
        List<CaseRequests.Done> done = CaseRequests.awaitAll(calls, WAIT);
        int stillAnswering = stub.tally().inFlight();
        List<Double> lateMs = CaseRequests.lateMs(done, TIMEOUT);
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("warmUp", warm);
        f.put("requests", REQUESTS);
        f.put("timeoutMs", TIMEOUT.toMillis());
        f.put("timeoutKind", adapter.settings().getOrDefault("timeoutKind", "unknown"));
        f.put("waitedMs", WAIT.toMillis());
        f.put("outcomes", CaseRequests.classes(done));
        f.put("said", CaseRequests.said(done));
        f.put("fired", done.stream().filter(d -> d.reported() && d.outcome() != Outcome.OK).count());
        f.put("stubStillAnswering", stillAnswering);
        f.put("lateMsP50", Double.isNaN(CaseRequests.quantile(lateMs, 0.5)) ? null : CaseRequests.quantile(lateMs, 0.5));
        f.put("lateMsMax", lateMs.isEmpty() ? null : CaseRequests.quantile(lateMs, 1.0));
        return f;
    }
}
