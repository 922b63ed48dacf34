package clientbench.adapters.support;

import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * What every blocking client on virtual threads does around its one call: a virtual thread per request, a permit within
 * the request timeout (which runs from send()), the time left handed on, one outcome reported once; a send after
 * close() is REJECTED. {@link Call#onDeadline} cancels an exchange the client's own timeouts cannot.
 */
public final class VirtualThreadExchanges implements AutoCloseable {

    /** The blocking exchange: runs on the request's virtual thread, holding a permit when there are permits. */
    @FunctionalInterface
    public interface Exchange {
        Answer exchange(Call call) throws Exception;
    }

    /**
     * What a response came to.
     *
     * @param wrongVersion non-null when the response came on another HTTP version than the pinned one: OTHER
     */
    public record Answer(int status, long bodyBytes, RuntimeException wrongVersion) {
        public static Answer of(int status, long bodyBytes) {
            return new Answer(status, bodyBytes, null);
        }
    }

    /** One request on its virtual thread: the request, the time left of its timeout, its deadline action. */
    public final class Call {
        private final Request request;
        private final long deadlineNanos;
        private volatile boolean expired;
        private ScheduledFuture<?> cancelAtDeadline;

        private Call(Request request, long deadlineNanos) {
            this.request = request;
            this.deadlineNanos = deadlineNanos;
        }

        public Request request() {
            return request;
        }

        /** What is left of the request timeout, at least 1 ns: give it to the client's own timeout. */
        public Duration timeLeft() {
            return Duration.ofNanos(Math.max(1, deadlineNanos - System.nanoTime()));
        }

        /**
         * Runs {@code cancel} on the adapter's deadline thread when the request timeout passes, unless the
         * exchange returned first; once per call, and only with {@code withDeadlines} in the constructor.
         */
        public void onDeadline(Runnable cancel) {
            cancelAtDeadline = deadlines.schedule(timeLeft(), () -> {
                expired = true;
                cancel.run();
            });
        }
    }

    private final AdapterConfig config;
    private final Semaphore permits;
    private final DeadlineTimer deadlines;
    private final Function<? super Throwable, Outcome> classify;
    private final ExecutorService threads;

    /**
     * @param permits requests that may run the exchange at once, or null when the client limits itself
     * @param withDeadlines start one deadline thread ({@code <adapter>-deadline}) for {@link Call#onDeadline}
     * @param classify the client's failure classes ({@link Outcomes#ofThrowable} with its own exceptions first)
     */
    public VirtualThreadExchanges(String adapterName, AdapterConfig config, Semaphore permits, boolean withDeadlines,
                                  Function<? super Throwable, Outcome> classify) {
        this.config = config;
        this.permits = permits;
        this.deadlines = withDeadlines ? new DeadlineTimer(adapterName + "-deadline") : null;
        this.classify = classify;
        this.threads = VirtualThreads.perRequest(adapterName);
    }

    /** Starts {@code exchange} on a new virtual thread; never blocks the caller. */
    public void send(Request request, Completion completion, Exchange exchange) {
        long deadlineNanos = System.nanoTime() + config.requestTimeout().toNanos();
        VirtualThreads.start(threads, completion, () -> run(new Call(request, deadlineNanos), completion, exchange));
    }

    private void run(Call call, Completion completion, Exchange exchange) {
        Outcome outcome;
        int status = 0;
        long bodyBytes = -1;
        Throwable failure = null;
        boolean permitted = false;
        try {
            if (permits != null) {
                permitted = permits.tryAcquire(call.deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
                if (!permitted) {
                    throw new TimeoutException("request timeout passed while queued for a connection");
                }
            }
            Answer answer = exchange.exchange(call);
            status = answer.status();
            bodyBytes = answer.bodyBytes();
            failure = answer.wrongVersion();
            outcome = failure != null ? Outcome.OTHER : Outcomes.ofResponse(call.request, status, bodyBytes);
        } catch (Throwable t) { // an Error too: the request is still reported, once
            if (call.expired) { // the deadline's cancel shows up as whatever the aborted I/O threw
                failure = new TimeoutException("request timeout of " + config.requestTimeout().toMillis()
                        + " ms passed").initCause(t);
                outcome = Outcome.TIMEOUT;
            } else {
                failure = t;
                outcome = t instanceof TimeoutException ? Outcome.TIMEOUT : classify.apply(t);
            }
        } finally {
            if (call.cancelAtDeadline != null) {
                call.cancelAtDeadline.cancel(false);
            }
            if (permitted) {
                permits.release(); // before the report: the next request never waits on this one's completion
            }
        }
        Thread.interrupted(); // a deadline's interrupt that raced with the end must not reach the completion
        completion.complete(outcome, status, bodyBytes, failure);
        if (failure instanceof VirtualMachineError e) {
            throw e;
        }
    }

    /**
     * Interrupts the virtual threads still running and waits for them, bounded; then ends the deadline thread.
     * Closing the client first leaves few running; a client whose pool leaks a connection released after its
     * close (Apache's classic pool) is closed after this instead ({@code ApacheVtAdapter.close}). Idempotent.
     */
    @Override
    public void close() {
        VirtualThreads.shutdown(threads);
        if (deadlines != null) {
            deadlines.close();
        }
    }
}
