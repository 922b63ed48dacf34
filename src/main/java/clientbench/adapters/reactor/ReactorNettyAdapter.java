package clientbench.adapters.reactor;

import clientbench.adapters.support.OpenBodies;
import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Request;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.netty.http.client.HttpClient;

/**
 * Reactor Netty 1.3 {@code HttpClient}, each request as {@link ReactorRequests} writes it, settings from {@link
 * ReactorClients}. Off its defaults: its own pool and loops; protocol pinned; JSSE; no retry; one {@code Mono.timeout}
 * (with the library's own timeout, its {@code responseTimeout} instead);
 * {@link clientbench.adapters.support.OpenChannels}.
 * Docs: https://projectreactor.io/docs/netty/release/reference/http-client.html
 */
public final class ReactorNettyAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final ReactorEngine engine;
    private final Scheduler timeouts;
    private final HttpClient client;
    private final Set<ReactorExchange> inFlight = ConcurrentHashMap.newKeySet();
    private final OpenBodies leftOpen = new OpenBodies();
    private volatile boolean closed;

    public ReactorNettyAdapter(AdapterConfig config) {
        this.config = config;
        this.engine = new ReactorEngine(config, name());
        this.timeouts = engine.timeouts();
        this.client = engine.client();
    }

    @Override
    public void send(Request request, Completion completion) {
        if (closed) {
            completion.complete(Outcome.REJECTED, 0, new RejectedExecutionException(name() + " is closed"));
            return;
        }
        Mono<ReactorRequests.Received> received = ReactorRequests.exchange(client, request, leftOpen);
        ReactorExchange tracked = new ReactorExchange(config, request, completion, inFlight);
        inFlight.add(tracked);
        (config.tuning().libraryTimeout() ? received : received.timeout(config.requestTimeout(), timeouts))
                .subscribe(r -> tracked.received(r.status(), r.majorVersion(), r.bytes()), tracked::failed);
    }

    @Override
    public void close() {
        if (closed) {
            return; // the event loops shut down once: a second shutdown throws
        }
        closed = true;
        leftOpen.closeAll();
        engine.close();
        inFlight.forEach(ReactorExchange::abandon);
    }

    @Override
    public String libraryVersion() {
        return ReactorEngine.libraryVersion();
    }

    @Override
    public Map<String, String> settings() {
        return engine.settings();
    }

    @Override
    public String name() {
        return "reactor";
    }
}
