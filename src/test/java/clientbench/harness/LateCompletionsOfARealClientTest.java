package clientbench.harness;

import clientbench.adapters.Adapters;
import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Request;
import clientbench.harness.record.IterationSnapshot;
import clientbench.stub.StubExtension;
import clientbench.testkit.Iterations;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A real client's answers after the drain never leak into the next iteration: iteration 1 (1.5 s delays, 100 ms drain)
 * times them all out, they complete ok about 1.2 s into iteration 2 (3 s long: 1.7 s to spare), which counts only its
 * own requests, as the test's and the stub's counts say. A run whose answers were not late fails, never passes unseen.
 */
@Timeout(60)
class LateCompletionsOfARealClientTest {
    private static final Duration DRAIN = Duration.ofMillis(100);

    @RegisterExtension
    final StubExtension stub = new StubExtension(); // one a test: its count is this client's

    @ParameterizedTest
    @ValueSource(strings = {"jdk", "reactor", "jetty-vt"})
    void answersAfterTheDrainAreNotCountedInTheNextIteration(String client) {
        Phased adapter = new Phased(Adapters.create(client, AdapterConfig.defaults(stub.uri())),
                Request.get(stub.uri(), "/?delayMs=1500", 5));
        LoadGenerator g = new LoadGenerator(adapter, Request.get(stub.uri(), "/", 5),
                LoadSpec.open(50, 64, LoadSpec.Backpressure.PARK, DRAIN).withLateSendGrace(AccountingTest.GRACE));
        IterationSnapshot first;
        IterationSnapshot second;
        try (adapter) {
            adapter.phase = 1;
            first = Iterations.run(g, 200);
            adapter.phase = 2;
            second = Iterations.run(g, 3_000);
        }
        String counts = "first " + first.summary() + "; second " + second.summary() + "; the test counted " + adapter;

        assertEquals(adapter.sent[1].get(), first.sent(), counts);
        assertEquals(first.sent(), first.expiredAtDrain(), "all still out at the drain: " + counts);
        assertEquals(first.sent(), adapter.late.get(), "the first iteration's answers all came during the second: " + counts);
        long sent = adapter.sent[2].get();
        assertEquals(sent, second.sent(), counts);
        assertEquals(adapter.sent[1].get() + sent, stub.server().requests(), "the stub received every request, once: " + counts);
        long outcomes = 0;
        for (Outcome o : Outcome.values()) {
            outcomes += second.count(o);
        }
        assertEquals(sent, outcomes, "one outcome for each of its own requests: " + counts);
        assertEquals(sent, second.latency().getTotalCount(), "one latency for each of its own requests: " + counts);
        assertEquals(0, second.duplicates(), counts);
    }

    /** Sends a 1.5 s delay in phase 1 and the request as given in phase 2, counting per phase what it sent and when it completed. */
    private static final class Phased implements HttpClientAdapter {
        final HttpClientAdapter client;
        final Request slow;
        final AtomicLong[] sent = {new AtomicLong(), new AtomicLong(), new AtomicLong()};
        /** Completions of phase 1's requests that came in phase 2. */
        final AtomicLong late = new AtomicLong();
        volatile int phase;

        Phased(HttpClientAdapter client, Request slow) {
            this.client = client;
            this.slow = slow;
        }

        @Override
        public void send(Request request, Completion completion) {
            int sentIn = phase;
            sent[sentIn].incrementAndGet();
            client.send(sentIn == 1 ? slow : request, new Completion() {
                @Override
                public void complete(Outcome outcome, int status, Throwable cause) {
                    complete(outcome, status, -1, cause);
                }

                @Override
                public void complete(Outcome outcome, int status, long bodyBytes, Throwable cause) {
                    if (sentIn == 1 && phase == 2) {
                        late.incrementAndGet();
                    }
                    completion.complete(outcome, status, bodyBytes, cause);
                }
            });
        }

        @Override
        public void close() {
            client.close();
        }

        @Override
        public String name() {
            return client.name();
        }

        @Override
        public String libraryVersion() {
            return client.libraryVersion();
        }

        @Override
        public Map<String, String> settings() {
            return client.settings();
        }

        @Override
        public String toString() {
            return "sent " + sent[1] + " then " + sent[2] + ", late " + late;
        }
    }
}
