package clientbench.adapters.noop;

import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Request;

import java.util.Map;

/**
 * {@code noop}: completes every request inline with 200 and the expected body, touching no network.
 * Benchmarks of it measure the harness alone (pacing, permits, recording), the floor under every client.
 */
public final class NoopAdapter implements HttpClientAdapter {

    public NoopAdapter() {
    }

    @Override
    public void send(Request request, Completion completion) {
        // the body length a client reports, so the baseline records it as every client's exchange does
        completion.complete(Outcome.OK, 200, Math.max(0, request.expectedBodyBytes()), null);
    }

    @Override
    public void close() {
    }

    @Override
    public String name() {
        return "noop";
    }

    @Override
    public String libraryVersion() {
        return "clientbench:noop:" + Runtime.version().feature();
    }

    @Override
    public Map<String, String> settings() {
        return Map.of("network", "none: completes inline");
    }
}
