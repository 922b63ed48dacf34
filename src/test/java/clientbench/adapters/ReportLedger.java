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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Every report each request sent through it got (of at most {@code n}, ids 0 to n - 1), with when it came, and when
 * each send() and the adapter's close() returned. Read once the adapter's threads are gone, it sees a second report or
 * a late one whenever it came, not only in a window after the first. Times are {@link System#nanoTime()}, taken after
 * the event they mark.
 */
final class ReportLedger {

    private record Report(Outcome outcome, long atNanos) {
    }

    private final Map<Integer, List<Report>> reports = new ConcurrentHashMap<>();
    private final AtomicLongArray sendReturnedNanos;
    private final AtomicInteger sent = new AtomicInteger();
    private volatile long closeCalledNanos = Long.MAX_VALUE;
    private volatile long closeReturnedNanos = Long.MAX_VALUE;

    ReportLedger(int n) {
        this.sendReturnedNanos = new AtomicLongArray(n);
    }

    /** Sends request {@code id} (0 to n - 1, each once) and records its reports. */
    void send(HttpClientAdapter adapter, int id, Request request) {
        sent.incrementAndGet();
        adapter.send(request, (outcome, status, cause) -> {
            List<Report> mine = reports.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>());
            mine.add(new Report(outcome, System.nanoTime()));
        });
        sendReturnedNanos.set(id, System.nanoTime());
    }

    /** Whether close() was called: senders racing with it may stop a few sends later. */
    boolean closeCalled() {
        return closeCalledNanos != Long.MAX_VALUE;
    }

    void close(HttpClientAdapter adapter) {
        closeCalledNanos = System.nanoTime();
        adapter.close();
        closeReturnedNanos = System.nanoTime();
    }

    /**
     * Once the senders are done, waits until every request sent has a report; a deadline, not a duration: it only ends a
     * hang (a second report is caught by {@link #assertEachOnceNoneAfterClose}, not here).
     */
    void awaitAll(Duration deadline) throws InterruptedException {
        long end = System.nanoTime() + deadline.toNanos();
        while (reports.size() < sent.get() && System.nanoTime() < end) {
            Thread.sleep(5);
        }
        assertTrue(reports.size() >= sent.get(), (sent.get() - reports.size()) + " of " + sent.get()
                + " requests unreported " + deadline.toSeconds() + " s after close()");
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
                () -> assertEquals(sent.get(), reports.size(), "requests reported"),
                () -> assertEquals(Map.of(), notOnce, "requests reported other than once"),
                () -> assertEquals(Map.of(), late, "requests sent before close() reported after it returned"),
                () -> assertTrue(allowed.containsAll(counts.keySet()), "outcomes " + counts + ", allowed " + allowed));
        return counts;
    }
}
