package clientbench.adapters.spring;

import clientbench.api.Completion;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import reactor.core.Disposable;

/**
 * One WebClient request: reports once, whichever of the response, the timeout or the adapter's close() ends it first,
 * and holds its subscription so that close() can cancel what is left.
 */
final class WebExchange {

    private final Request request;
    private final Completion completion;
    private final Set<WebExchange> inFlight;
    private final Function<Throwable, Outcome> classify;
    private final AtomicBoolean done = new AtomicBoolean();
    private volatile Disposable subscription;

    /** The caller adds it to {@code inFlight}; it removes itself when it reports. */
    WebExchange(Request request, Completion completion, Set<WebExchange> inFlight, Function<Throwable, Outcome> classify) {
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

    void received(int status, long bytes) {
        if (finish()) {
            completion.complete(Outcomes.ofResponse(request, status, bytes), status, bytes, null);
        }
    }

    void failed(Throwable failure) {
        if (finish()) {
            completion.complete(classify.apply(failure), 0, failure);
        }
    }

    /** For close(): reports the request as ended by the close, then cancels its subscription. */
    void abandon() {
        failed(new IOException("Spring WebClient closed with the request in flight"));
        Disposable s = subscription;
        if (s != null) {
            s.dispose();
        }
    }

    private boolean finish() {
        if (done.compareAndSet(false, true)) {
            inFlight.remove(this);
            return true;
        }
        return false;
    }
}
