package clientbench.behaviour;

import clientbench.api.HttpClientAdapter;
import clientbench.api.Tuning;
import clientbench.harness.record.Thresholds;
import clientbench.stub.StubServer;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * Responses whose head (status line to blank line) is 6, 12 and 40 KiB, {@value #REQUESTS} at once of each size, one
 * size after another: per size, what the stub sent, how the requests ended and what the client said. The sizes straddle
 * the libraries' default limits: Netty's 8 KiB (AsyncHttpClient, Reactor Netty, Vert.x), Helidon's 16 KiB; the JDK's
 * 384 KiB, OkHttp's 256 KiB, and Jetty's and Apache's none on the head's total. A request not reported within
 * {@link #WAIT} hung.
 */
final class LargeHeaders implements BehaviourCase {

    static final int[] HEADER_BYTES = {6 * 1024, 12 * 1024, 40 * 1024};
    static final int REQUESTS = 3;
    static final Duration TIMEOUT = Duration.ofSeconds(2);
    /** Past this a request has hung: a timer is never that late on a busy machine (thresholds.json). */
    static final Duration WAIT = TIMEOUT.plusMillis(Thresholds.DEADLINE_LATE_MILLIS);

    @Override
    public String key() {
        return "large-headers";
    }

    @Override
    public Tuning tuning() {
        return Tuning.AS_SHIPPED;
    }

    @Override
    public String provokes() {
        String sizes = Arrays.stream(HEADER_BYTES).mapToObj(n -> n / 1024 + " KiB").collect(Collectors.joining(", "));
        return REQUESTS + " requests at once for each of " + HEADER_BYTES.length + " response heads padded to " + sizes
                + " (header lines of at most 4 KiB), one size after another, with a " + TIMEOUT.toMillis()
                + " ms request timeout";
    }

    @Override
    public Map<String, Object> run(CaseContext c) throws Exception {
        StubServer stub = c.stub();
        URI uri = stub.uri();
        HttpClientAdapter adapter = c.adapter(uri, TIMEOUT);
        Map<String, Integer> warm = c.warmUp(adapter, uri);
        List<Map<String, Object>> bySize = new ArrayList<>();
        for (int n : HEADER_BYTES) {
            long sentBefore = stub.tally().largeHeads();
            List<CaseRequests.Call> calls = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                calls.add(CaseRequests.send(adapter, c.get(uri, "/?bytes=100&headerBytes=" + n, "h" + n + "-" + i)));
            }
            List<CaseRequests.Done> done = CaseRequests.awaitAll(calls, WAIT);
            Map<String, Object> size = new LinkedHashMap<>();
            size.put("headerBytes", n);
            size.put("requests", REQUESTS);
            size.put("stubSent", stub.tally().largeHeads() - sentBefore);
            size.putAll(StubReadCounts.of(stub, c.key("h" + n + "-"), "stub"));
            size.put("outcomes", CaseRequests.classes(done));
            size.put("said", CaseRequests.said(done));
            OptionalDouble latest = done.stream().filter(CaseRequests.Done::reported).mapToDouble(CaseRequests.Done::millis)
                    .max();
            size.put("reportedMsMax", latest.isPresent() ? latest.getAsDouble() : null);
            bySize.add(size);
        }
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("warmUp", warm);
        f.put("timeoutMs", TIMEOUT.toMillis());
        f.put("waitedMs", WAIT.toMillis());
        f.put("bySize", bySize);
        return f;
    }
}
