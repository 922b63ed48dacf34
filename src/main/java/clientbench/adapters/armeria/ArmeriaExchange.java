package clientbench.adapters.armeria;

import clientbench.adapters.support.PendingCount;
import clientbench.api.Completion;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import io.netty.util.concurrent.EventExecutor;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One Armeria request: gives its permit back and reports once, whichever of the response, the timeout or the
 * adapter's close() ends it first. A callback on loops already shut down never runs, so close() abandons what is left.
 */
final class ArmeriaExchange {

    private final Request request;
    private final Completion completion;
    private final Set<ArmeriaExchange> inFlight;
    private final PendingCount unreported;
    private final Runnable releasePermit;
    private final AtomicBoolean done = new AtomicBoolean();
    private final AtomicBoolean permitHeld = new AtomicBoolean();
    private volatile EventExecutor connectionLoop;

    /**
     * The caller adds it to {@code inFlight}, and to {@code unreported}; it leaves the first as it ends and the second
     * once its report returned, which close() waits for: an ending on another thread may not have reported yet.
     */
    ArmeriaExchange(Request request, Completion completion, Set<ArmeriaExchange> inFlight, PendingCount unreported,
                    Runnable releasePermit) {
        this.request = request;
        this.completion = completion;
        this.inFlight = inFlight;
        this.unreported = unreported;
        this.releasePermit = releasePermit;
    }

    Request request() {
        return request;
    }

    /** Takes the adapter's permit for it; false, the permit given back, when close() ended it meanwhile. */
    boolean permitted() {
        permitHeld.set(true);
        if (done.get()) {
            if (permitHeld.compareAndSet(true, false)) {
                releasePermit.run();
            }
            return false;
        }
        return true;
    }

    /**
     * The permit then goes back in a later task of the connection's loop: Armeria frees the stream or returns the
     * connection after it completes the response, and a request started before that opens a connection past the limit.
     */
    void startedOn(EventExecutor loop) {
        connectionLoop = loop;
    }

    void received(int status, long bytes) {
        if (finish()) {
            try {
                completion.complete(Outcomes.ofResponse(request, status, bytes), status, bytes, null);
            } finally {
                unreported.done();
            }
        }
    }

    void failed(Outcome outcome, Throwable failure) {
        if (finish()) {
            try {
                completion.complete(outcome, 0, failure);
            } finally {
                unreported.done();
            }
        }
    }

    /** For close(): nothing else will end this request once the loops are gone. */
    void abandon() {
        failed(Outcome.RESET, new IOException("Armeria closed with the request in flight"));
    }

    /** The permit goes back before the report; once started, in its loop's next task ({@link #startedOn} says why). */
    private boolean finish() {
        if (!done.compareAndSet(false, true)) {
            return false;
        }
        inFlight.remove(this);
        if (permitHeld.compareAndSet(true, false)) {
            releasePermit();
        }
        return true;
    }

    /** Inline where the loop is stopping: a task queued as it stops may be dropped without a rejection. */
    private void releasePermit() {
        EventExecutor loop = connectionLoop;
        if (loop == null || loop.isShuttingDown()) {
            releasePermit.run();
            return;
        }
        try {
            loop.execute(releasePermit);
        } catch (RejectedExecutionException stopped) {
            releasePermit.run();
        }
    }
}
