package clientbench.adapters.support;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Requests in a stage an adapter's close() must see end (sent and not yet reported, say): one increment and one
 * decrement each, and a bounded wait for none, for a client whose own close does not wait for them.
 */
public final class PendingCount {

    private final AtomicInteger pending = new AtomicInteger();

    public void add() {
        pending.incrementAndGet();
    }

    public void done() {
        pending.decrementAndGet();
    }

    /** Returns once none is pending, or {@code max} has passed; a millisecond's park between looks. */
    public void awaitNone(Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        while (pending.get() > 0 && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
