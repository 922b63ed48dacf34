package clientbench.adapters.support;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A connection limit for a client that has none (the JDK's): at most {@code permits} tasks run at once,
 * the rest wait in FIFO order. Never blocks: a task that finds no permit is queued and later started by
 * whichever thread releases one. Each started task must call {@link #release()} exactly once.
 */
public final class AsyncPermits {

    private final Semaphore permits;
    private final Queue<Runnable> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger drainers = new AtomicInteger();

    public AsyncPermits(int permits) {
        this.permits = new Semaphore(permits);
    }

    /** Runs {@code task} now on this thread if a permit is free, else later on a releasing thread. */
    public void submit(Runnable task) {
        queue.add(task);
        drain();
    }

    /** Returns a started task's permit and starts the oldest queued task, if any. */
    public void release() {
        permits.release();
        drain();
    }

    /** Adds {@code n} permits for good (see {@link Http2Ramp}) and starts what they allow. */
    public void grow(int n) {
        permits.release(n);
        drain();
    }

    /**
     * Starts queued tasks while permits last. Only one thread drains at a time and the others leave a
     * note for it in {@code drainers}, so a task that completes at once cannot make this recurse.
     */
    private void drain() {
        if (drainers.getAndIncrement() != 0) {
            return;
        }
        int missed = 1;
        do {
            while (!queue.isEmpty() && permits.tryAcquire()) {
                Runnable task = queue.poll();
                if (task == null) {
                    permits.release();
                    break;
                }
                task.run();
            }
            missed = drainers.addAndGet(-missed);
        } while (missed != 0);
    }
}
