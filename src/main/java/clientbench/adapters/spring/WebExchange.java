package clientbench.adapters.spring;

import clientbench.api.Completion;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import java.io.IOException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import reactor.core.Disposable;

/**
 * One WebClient request: reports once, whichever of the response, the timeout or the adapter's close() ends it first,
 * and holds its subscription and deadline so that either can be cancelled.
 */
final class WebExchange {

    private final Request request;
    private final Completion completion;
    private final WebInFlight inFlight;
    private final Function<Throwable, Outcome> classify;
    private final AtomicBoolean done = new AtomicBoolean();
    private volatile Disposable subscription;
    private volatile ScheduledFuture<?> deadline;

    /** The caller tells {@code inFlight} it started; it tells it once it has reported. */
    WebExchange(Request request, Completion completion, WebInFlight inFlight, Function<Throwable, Outcome> classify) {
        this.request = request;
        this.completion = completion;
        this.inFlight = inFlight;
        this.classify = classify;
    }

    Request request() {
        return request;
    }

    void subscribed(Disposable subscription) {
        this.subscription = subscription;
    }

    /** A deadline of the adapter's own timer: cancelled when the exchange ends first. */
    void deadline(ScheduledFuture<?> deadline) {
        this.deadline = deadline;
        if (done.get()) { // ended before the deadline was set: do not leave it queued
            deadline.cancel(false);
        }
    }

    void received(int status, long bytes) {
        if (finish()) {
            try {
                completion.complete(Outcomes.ofResponse(request, status, bytes), status, bytes, null);
            } finally {
                inFlight.ended(this);
            }
        }
    }

    void failed(Throwable failure) {
        if (finish()) {
            try {
                completion.complete(classify.apply(failure), 0, failure);
            } finally {
                inFlight.ended(this);
            }
        }
    }

    /** A Mono that completed without a value: a failure only if nothing else ended it, so success builds nothing. */
    void completedEmpty() {
        if (!done.get()) {
            failed(new IllegalStateException("the exchange ended without a response"));
        }
    }

    /** For the adapter's own timer: reports TIMEOUT, then cancels what the exchange still runs. */
    void timedOut(String why) {
        failed(new TimeoutException(why));
        cancel();
    }

    /** For close(): reports the request as ended by the close, then cancels its subscription. */
    void abandon() {
        failed(new IOException("Spring WebClient closed with the request in flight"));
        cancel();
    }

    private void cancel() {
        Disposable s = subscription;
        if (s != null) {
            s.dispose();
        }
    }

    private boolean finish() {
        if (!done.compareAndSet(false, true)) {
            return false;
        }
        ScheduledFuture<?> d = deadline;
        if (d != null) {
            d.cancel(false);
        }
        return true;
    }
}
