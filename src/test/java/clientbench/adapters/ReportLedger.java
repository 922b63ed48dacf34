package clientbench.adapters;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Request;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Every report each of {@code n} requests got, with when it came, and when each send() and the adapter's close()
 * returned. Read once the adapter's threads are gone, it sees a second report or a late one whenever it came, not
 * only in a window after the first. Times are {@link System#nanoTime()}, taken after the event they mark.
 */
final class ReportLedger {

    private record Report(Outcome outcome, long atNanos) {
    }

    private final int n;
    private final Map<Integer, List<Report>> reports = new ConcurrentHashMap<>();
    private final AtomicLongArray sendReturnedNanos;
    private final CountDownLatch firstOfAll;
    private volatile long closeCalledNanos = Long.MAX_VALUE;
    private volatile long closeReturnedNanos = Long.MAX_VALUE;

    ReportLedger(int n) {
        this.n = n;
        this.sendReturnedNanos = new AtomicLongArray(n);
        this.firstOfAll = new CountDownLatch(n);
    }

    /** Sends request {@code id} (0 to n - 1) and records its reports. */
    void send(HttpClientAdapter adapter, int id, Request request) {
        adapter.send(request, (outcome, status, cause) -> {
            List<Report> mine = reports.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>());
            mine.add(new Report(outcome, System.nanoTime()));
            firstOfAll.countDown(); // on every report: a second one is caught by assertEachOnce, not here
        });
        sendReturnedNanos.set(id, System.nanoTime());
    }

    void close(HttpClientAdapter adapter) {
        closeCalledNanos = System.nanoTime();
        adapter.close();
        closeReturnedNanos = System.nanoTime();
    }

    /** Waits until every request has a report; a deadline, not a duration: it only ends a hang. */
    void awaitAll(Duration deadline) throws InterruptedException {
        assertTrue(firstOfAll.await(deadline.toMillis(), TimeUnit.MILLISECONDS),
                firstOfAll.getCount() + " of " + n + " requests unreported " + deadline.toSeconds() + " s after close()");
    }

    /**
     * Each request reported exactly once, with an outcome in {@code allowed}; and none whose send() returned before
     * close() was called is reported after close() returned: close() ends what it was given. A send racing with
     * close() may be reported after it, once. Returns the count of each outcome.
     */
    Map<Outcome, Integer> assertEachOnceNoneAfterClose(Set<Outcome> allowed) {
        Map<Outcome, Integer> counts = new EnumMap<>(Outcome.class);
        Map<Integer, List<Outcome>> notOnce = new TreeMap<>();
        Map<Integer, Outcome> late = new TreeMap<>();
        reports.forEach((id, list) -> {
            list.forEach(r -> counts.merge(r.outcome, 1, Integer::sum));
            if (list.size() != 1) {
                notOnce.put(id, list.stream().map(Report::outcome).toList());
            }
            long sent = sendReturnedNanos.get(id);
            list.stream().filter(r -> sent < closeCalledNanos && r.atNanos > closeReturnedNanos)
                    .forEach(r -> late.put(id, r.outcome));
        });
        assertAll(
                () -> assertEquals(n, reports.size(), "requests reported"),
                () -> assertEquals(Map.of(), notOnce, "requests reported other than once"),
                () -> assertEquals(Map.of(), late, "requests sent before close() reported after it returned"),
                () -> assertTrue(allowed.containsAll(counts.keySet()), "outcomes " + counts + ", allowed " + allowed));
        return counts;
    }
}
