package clientbench.adapters.reactor;

import clientbench.adapters.support.AdapterSettings;
import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One request's subscription; reports once, whichever of the response, the timeout or the adapter's close()
 * ends it first. A request whose connection was still being set up when the event loops were shut down is
 * otherwise never completed (seen: 5 of 20 after close() in a cold JVM), so close() abandons what is left.
 */
final class ReactorExchange {

    private final AdapterConfig config;
    private final Request request;
    private final Completion completion;
    private final Set<ReactorExchange> inFlight;
    private final AtomicBoolean done = new AtomicBoolean();
    private final long sentAtNanos = System.nanoTime();

    /** The caller adds it to {@code inFlight}; it removes itself when it reports. */
    ReactorExchange(AdapterConfig config, Request request, Completion completion, Set<ReactorExchange> inFlight) {
        this.config = config;
        this.request = request;
        this.completion = completion;
        this.inFlight = inFlight;
    }

    void received(int status, int majorVersion, long bytes) {
        if (!finish()) {
            return;
        }
        if ((majorVersion == 2) != AdapterSettings.http2(config)) {
            completion.complete(Outcome.OTHER, status, bytes,
                    AdapterSettings.wrongVersion(config, "HTTP/" + majorVersion));
        } else {
            completion.complete(Outcomes.ofResponse(request, status, bytes), status, bytes, null);
        }
    }

    void failed(Throwable failure) {
        if (finish()) {
            Outcome outcome = ReactorEngine.outcomeOf(failure);
            // A timeout before the deadline is not one: the adapter's timer runs on the loops close() shuts down.
            boolean early = System.nanoTime() - sentAtNanos < config.requestTimeout().toNanos();
            completion.complete(outcome == Outcome.TIMEOUT && early ? Outcome.RESET : outcome, 0, failure);
        }
    }

    /**
     * For close(), once the event loops are gone: nothing else will end this request, and its subscription
     * cannot be cancelled either (cancelling runs on its terminated loop and throws).
     */
    void abandon() {
        failed(new IOException("Reactor Netty closed with the request in flight"));
    }

    private boolean finish() {
        if (done.compareAndSet(false, true)) {
            inFlight.remove(this);
            return true;
        }
        return false;
    }
}
