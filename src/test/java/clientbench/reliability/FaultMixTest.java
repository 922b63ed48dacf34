package clientbench.reliability;

import clientbench.adapters.Adapters;
import clientbench.api.AdapterConfig;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Protocol;
import clientbench.api.Request;
import clientbench.harness.record.IterationSnapshot;
import clientbench.harness.LoadGenerator;
import clientbench.harness.LoadSpec;
import clientbench.stub.StubExtension;
import clientbench.testkit.Iterations;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stub faults mixed in one run (500, reset, close, a delay past the timeout) each land in their own class, exactly, for
 * every client: the mix repeats every 20 POSTs (never retried), so the stub's sent count fixes each. Busy margins: an
 * ok times out only after a 1 s stall; the 5 s delay ends ok only if the 1 s timer fires 4 s late.
 */
@org.junit.jupiter.api.Tag("reliability") // a long test: mvn verify (Failsafe), not mvn package
@Timeout(120)
class FaultMixTest {
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(1);
    private static final int RATE = 100;
    private static final int WINDOW_MILLIS = 1_000;
    @RegisterExtension
    static final StubExtension stub = new StubExtension();

    /** The cycle: what each of 20 requests asks for, and the class it must end in. */
    private static final List<Map.Entry<String, Outcome>> MIX = new ArrayList<>();

    static {
        for (int i = 0; i < 12; i++) {
            MIX.add(Map.entry("/?bytes=5", Outcome.OK));
        }
        MIX.add(Map.entry("/?status=500", Outcome.STATUS));
        MIX.add(Map.entry("/?fault=reset", Outcome.RESET));
        MIX.add(Map.entry("/?status=500", Outcome.STATUS));
        MIX.add(Map.entry("/?fault=close", Outcome.RESET));
        MIX.add(Map.entry("/?delayMs=5000", Outcome.TIMEOUT));
        MIX.add(Map.entry("/?fault=reset", Outcome.RESET));
        MIX.add(Map.entry("/?status=500", Outcome.STATUS));
        MIX.add(Map.entry("/?fault=close", Outcome.RESET));
    }

    static List<String> clients() {
        return Adapters.names();
    }

    @ParameterizedTest
    @MethodSource("clients")
    void eachFaultIsCountedInItsOwnClassExactly(String client) {
        URI target = stub.uri();
        AdapterConfig config = new AdapterConfig(target, Protocol.HTTP1, 64, Duration.ofSeconds(2), REQUEST_TIMEOUT, 0, true);
        List<Request> requests = MIX.stream().map(m -> Request.post(target, m.getKey(), new byte[16], 5)).toList();
        IterationSnapshot s;
        long receivedBefore = stub.server().requests();
        try (HttpClientAdapter adapter = Adapters.create(client, config)) {
            LoadGenerator g = new LoadGenerator(adapter, requests,
                    LoadSpec.open(RATE, 32, LoadSpec.Backpressure.PARK, REQUEST_TIMEOUT.plusSeconds(1)));
            s = Iterations.run(g, WINDOW_MILLIS);
        }
        Map<Outcome, Long> expected = new EnumMap<>(Outcome.class);
        for (Outcome o : Outcome.values()) {
            expected.put(o, 0L);
        }
        for (long i = 0; i < s.sent(); i++) {
            expected.merge(MIX.get((int) (i % MIX.size())).getValue(), 1L, Long::sum);
        }
        long received = stub.server().requests() - receivedBefore; // by the time the client closed, every request was in
        assertEquals(RATE * WINDOW_MILLIS / 1_000, s.scheduled(), s.summary());
        // Outside the harness: the stub received each request sent once (no retry, no resend), and what never
        // reached it is what the harness calls unsent.
        assertEquals(s.sent(), received, "requests the stub received: " + s.summary());
        assertEquals(RATE * WINDOW_MILLIS / 1_000 - received, s.dropped(), "due but never received: " + s.summary());
        // One whole cycle, so that every class shows: the first 20 are due in 200 ms of a 1 s window.
        assertTrue(s.sent() >= MIX.size(), s.summary());
        assertEquals(0, s.expiredAtDrain(), "every request ended by the client's own timeout at the latest: " + s.summary());
        for (Outcome o : Outcome.values()) {
            assertEquals(expected.get(o), s.count(o), client + " " + o.label() + ": " + s.summary());
        }
    }
}
