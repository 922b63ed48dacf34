package clientbench.stub;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/** Counters shared by every connection of one stub; cheap to bump from any event loop. */
final class StubStats {
    final AtomicInteger openConnections = new AtomicInteger();
    final LongAdder requests = new LongAdder();
    /** The part of {@link #requests} answered on HTTP/2 streams (h2c or h2); the rest were HTTP/1.1. */
    final LongAdder http2Requests = new LongAdder();
    final LongAdder badRequests = new LongAdder();
    final LongAdder faults = new LongAdder();
    private long lastRequests;
    private long lastNanos = System.nanoTime();

    /** One line for the per-second report; called from a single thread. */
    String intervalLine() {
        long now = System.nanoTime();
        long total = requests.sum();
        double perSecond = (total - lastRequests) * 1e9 / Math.max(1, now - lastNanos);
        lastRequests = total;
        lastNanos = now;
        return String.format("stub: open=%d req/s=%.0f total=%d bad=%d faults=%d",
                openConnections.get(), perSecond, total, badRequests.sum(), faults.sum());
    }

    String totalLine() {
        return String.format("stub: stopped; total requests=%d bad=%d faults=%d",
                requests.sum(), badRequests.sum(), faults.sum());
    }
}
