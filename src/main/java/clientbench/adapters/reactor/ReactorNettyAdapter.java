package clientbench.adapters.reactor;

import clientbench.adapters.support.OpenBodies;
import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Request;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpMethod;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.netty.http.client.HttpClient;

/**
 * Reactor Netty 1.3 {@code HttpClient}, built per call as users write it, settings from {@link ReactorClients}. Off its
 * defaults: its own pool and loops; protocol pinned; JSSE; no retry; one {@code Mono.timeout} (with the library's own
 * timeout, its {@code responseTimeout} instead); {@link OpenChannels}.
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
        HttpClient.RequestSender sender = client
                .headers(h -> {
                    request.headers().forEach(x -> h.add(x.name(), x.value()));
                    if (request.hasBody()) {
                        h.set("Content-Type", request.contentType());
                    }
                })
                .request(HttpMethod.valueOf(request.method()))
                .uri(request.uri());
        HttpClient.ResponseReceiver<?> exchange = request.hasBody()
                ? sender.send(Mono.fromCallable(() -> Unpooled.wrappedBuffer(request.body())))
                : sender;
        ReactorExchange tracked = new ReactorExchange(config, request, completion, inFlight);
        inFlight.add(tracked);
        // A caller that abandons the body never subscribes to it; Reactor Netty decides about the connection.
        Mono<Received> received = request.leavesBodyOpen() ? leavingBodyOpen(exchange)
                : exchange.response((response, body) -> (request.abandonsBody() ? Mono.just(-1L)
                        : body.reduce(0L, (n, buf) -> n + buf.readableBytes()))
                        .map(bytes -> new Received(response.status().code(), response.version().majorVersion(), bytes)))
                .single();
        (config.tuning().libraryTimeout() ? received : received.timeout(config.requestTimeout(), timeouts))
                .subscribe(r -> tracked.received(r.status, r.majorVersion, r.bytes), tracked::failed);
    }

    /** The caller takes the connection with the response ({@code responseConnection}) and never disposes of it. */
    private Mono<Received> leavingBodyOpen(HttpClient.ResponseReceiver<?> exchange) {
        return exchange.responseConnection((response, connection) -> {
            leftOpen.hold(connection, reactor.netty.Connection::dispose);
            return Mono.just(new Received(response.status().code(), response.version().majorVersion(), -1L));
        }).single();
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

    private record Received(int status, int majorVersion, long bytes) {
    }
}
