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
import java.util.stream.Stream;

/**
 * {@value #LEFT_OPEN} error answers (500, a 1 MiB body) whose bodies the caller neither reads nor closes, at once, then
 * {@value #AFTER} ordinary requests at once, at the library's own pool limits: how many connections the stub then
 * holds open, and whether the ordinary requests still pass (square/okhttp#2311). The adapter holds each response
 * strongly until the case ends, as a caller's list would, so no collector frees a connection; the timeout is past the
 * case's end, so none frees it either.
 */
final class UnclosedBody implements BehaviourCase {

    /** Past the largest pool a library ships (Jetty's 64 per destination): every finite default is used up. */
    static final int LEFT_OPEN = 70;
    static final int AFTER = 5;
    /** More than the socket buffers and any client's read-ahead hold: the rest stays on the connection. */
    static final int BODY_BYTES = 1024 * 1024;
    /** Past the case's end: no total timeout frees a held connection while the case looks. */
    static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** A loopback answer on a free connection comes far sooner, on a busy machine too: one not reported waited. */
    static final Duration WAIT = Duration.ofSeconds(3);

    @Override
    public String key() {
        return "unclosed-body";
    }

    @Override
    public Tuning tuning() {
        return Tuning.LIBRARY_LIMITS; // a pool limit the library ships is what makes a leak bite
    }

    @Override
    public String provokes() {
        return LEFT_OPEN + " error answers (500, " + BODY_BYTES / (1024 * 1024) + " MiB body) at once whose bodies the"
                + " caller neither reads nor closes, then " + AFTER + " ordinary requests at once, at the library's"
                + " own pool limits";
    }

    @Override
    public Map<String, Object> run(CaseContext c) throws Exception {
        StubServer stub = c.stub();
        URI uri = stub.uri();
        HttpClientAdapter adapter = c.adapter(uri, TIMEOUT);
        Map<String, Integer> warm = c.warmUp(adapter, uri);
        long acceptedBefore = stub.stats().accepted();
        List<Calls.Call> open = new ArrayList<>();
        for (int i = 0; i < LEFT_OPEN; i++) {
            open.add(Calls.send(adapter, c.get(uri, "/?status=500&bytes=" + BODY_BYTES, "open-" + i)
                    .withExpectedStatus(500).withBodyLeftOpen()));
        }
        List<Calls.Done> leftOpen = Calls.awaitAll(open, WAIT);
        int held = stub.openConnections();
        List<Calls.Call> after = new ArrayList<>();
        for (int i = 0; i < AFTER; i++) {
            after.add(Calls.send(adapter, c.get(uri, "/?bytes=5", "after-" + i)));
        }
        List<Calls.Done> then = Calls.awaitAll(after, WAIT);
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("warmUp", warm);
        f.put("timeoutMs", TIMEOUT.toMillis());
        f.put("waitedMs", WAIT.toMillis());
        f.put("leftOpen", LEFT_OPEN);
        f.put("leftOpenOutcomes", Calls.classes(leftOpen));
        f.putAll(Reads.of(stub, c.key("open-"), "leftOpenStub"));
        f.put("stubHeldOpen", held);
        f.put("afterRequests", AFTER);
        f.put("afterOutcomes", Calls.classes(then));
        f.putAll(Reads.of(stub, c.key("after-"), "afterStub"));
        f.put("afterMaxMs", then.stream().filter(Calls.Done::reported).mapToDouble(Calls.Done::millis).max()
                .orElse(-1));
        f.put("connectionsOpened", stub.stats().accepted() - acceptedBefore);
        f.put("said", Calls.said(Stream.concat(leftOpen.stream(), then.stream()).toList()));
        return f;
    }
}
