package clientbench.adapters.support;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Enforces the whole-exchange request timeout for clients that have none of their own (Apache HttpClient 5 bounds only
 * connect, lease and inactivity). One daemon platform thread per adapter; cancelled deadlines leave the queue at once,
 * so a fast exchange costs one schedule and one cancel.
 */
public final class DeadlineTimer implements AutoCloseable {

    private final ScheduledThreadPoolExecutor executor;

    public DeadlineTimer(String threadName) {
        executor = new ScheduledThreadPoolExecutor(1, Thread.ofPlatform().name(threadName).daemon().factory());
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    /** Runs {@code onExpiry} after {@code timeout} unless the returned future is cancelled first. */
    public ScheduledFuture<?> schedule(Duration timeout, Runnable onExpiry) {
        return executor.schedule(onExpiry, timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Drops pending deadlines and waits (bounded) for the thread to end; idempotent. */
    @Override
    public void close() {
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
