package clientbench.testkit;

import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Request;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/** Sends one request many times through an adapter, a few at once, as a load loop bounded by its count and a deadline. */
public final class BoundedSender {

    /** The deadline for every report to come: it ends a hang, a passing run never nears it. */
    private static final Duration ALL_REPORTED = Duration.ofSeconds(60);

    private BoundedSender() {
    }

    /** Sends {@code n}, at most {@code inFlight} at once; returns the outcomes, counted by the completions. */
    public static Map<Outcome, Integer> send(HttpClientAdapter adapter, Request request, int n, int inFlight)
            throws InterruptedException {
        Semaphore permits = new Semaphore(inFlight);
        CountDownLatch done = new CountDownLatch(n);
        Map<Outcome, Integer> outcomes = new ConcurrentHashMap<>();
        for (int i = 0; i < n; i++) {
            permits.acquire();
            adapter.send(request, (outcome, status, cause) -> {
                outcomes.merge(outcome, 1, Integer::sum);
                permits.release();
                done.countDown();
            });
        }
        if (!done.await(ALL_REPORTED.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError(done.getCount() + " of " + n + " requests never reported; so far " + outcomes);
        }
        return Map.copyOf(outcomes);
    }
}
