package clientbench.adapters.spring;

import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.AsyncPermits;
import clientbench.adapters.support.OpenBodies;
import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Request;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.core.codec.ByteArrayDecoder;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpMethod;
import org.springframework.http.codec.DecoderHttpMessageReader;
import org.springframework.web.reactive.function.client.ExchangeStrategies;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;

/**
 * Spring's WebClient over one engine's connector ({@link WebClients}), async: status by {@code exchangeToMono} (no
 * status handler), body as byte[] with the codec's in-memory limit lifted. A body the caller abandons is released by
 * Spring, which reads it to its end. Docs: docs/clients.md#spring-webclient
 */
public abstract class WebClientAdapter implements HttpClientAdapter {

    /** Unlimited: Spring's and Boot's 256 KiB default fails a larger body read as byte[] (DataBufferLimitException). */
    static final int MAX_IN_MEMORY_SIZE = -1;

    private final AdapterConfig config;
    private final String name;
    /** The suite's client of the same engine on the same threads: what the layer's cost is measured over. */
    private final String bareClient;
    private final WebClients.Engine engine;
    private final ExchangeStrategies strategies;
    private final WebClient client;
    private final Set<WebExchange> inFlight = ConcurrentHashMap.newKeySet();
    private final OpenBodies leftOpen = new OpenBodies();
    private final AtomicBoolean closed = new AtomicBoolean();

    WebClientAdapter(AdapterConfig config, String name, String bareClient, WebClients.Builder engine) {
        AdapterSettings.refuseHttp2(name, config, SpringLayer.NO_HTTP2);
        this.config = config;
        this.name = name;
        this.bareClient = bareClient;
        this.engine = engine.build(config, name);
        this.strategies = ExchangeStrategies.builder()
                .codecs(codecs -> codecs.defaultCodecs().maxInMemorySize(MAX_IN_MEMORY_SIZE)).build();
        this.client = WebClient.builder().clientConnector(this.engine.connector()).exchangeStrategies(strategies).build();
    }

    @Override
    public void send(Request request, Completion completion) {
        if (closed.get()) {
            completion.complete(Outcome.REJECTED, 0, new RejectedExecutionException(name + " is closed"));
            return;
        }
        WebExchange exchange = new WebExchange(request, completion, inFlight, engine.classify());
        inFlight.add(exchange);
        long queuedAtNanos = System.nanoTime();
        AsyncPermits permits = engine.permits();
        if (permits == null) {
            start(exchange, queuedAtNanos);
        } else {
            permits.submit(() -> start(exchange, queuedAtNanos));
        }
    }

    /** Holding a permit where there are permits; every path gives it back once. */
    private void start(WebExchange exchange, long queuedAtNanos) {
        AsyncPermits permits = engine.permits();
        Duration left = config.requestTimeout().minusNanos(System.nanoTime() - queuedAtNanos);
        if (closed.get() || left.isNegative() || left.isZero()) {
            exchange.failed(closed.get() ? new RejectedExecutionException(name + " is closed")
                    : new TimeoutException("request timeout passed while queued for a connection"));
            if (permits != null) {
                permits.release();
            }
            return;
        }
        Mono<Received> answer = exchange(exchange.request());
        if (engine.timeouts() != null) {
            answer = answer.timeout(left, engine.timeouts());
        }
        if (permits != null) {
            answer = answer.doFinally(signal -> permits.release());
        }
        try {
            exchange.subscribed(answer.subscribe(r -> exchange.received(r.status(), r.bytes()), exchange::failed,
                    () -> exchange.failed(new IllegalStateException("the exchange ended without a response"))));
        } catch (RuntimeException e) { // refused before it started, e.g. by a client closing under it
            exchange.failed(e);
        }
    }

    /** The request as WebClient's users write it, built on every send. */
    private Mono<Received> exchange(Request request) {
        WebClient.RequestBodySpec spec = client.method(HttpMethod.valueOf(request.method())).uri(request.uri())
                .headers(h -> SpringLayer.headers(request, h));
        WebClient.RequestHeadersSpec<?> ready = request.hasBody()
                ? spec.contentType(SpringLayer.contentType(request)).bodyValue(request.body())
                : spec;
        if (request.leavesBodyOpen()) { // the entity's body Flux is never subscribed: nothing reads or releases it
            return ready.retrieve().onStatus(status -> true, response -> Mono.<Throwable>empty())
                    .toEntityFlux(DataBuffer.class)
                    .map(entity -> {
                        leftOpen.hold(entity, e -> e.getBody().subscribe(DataBufferUtils::release).dispose());
                        return new Received(entity.getStatusCode().value(), -1);
                    });
        }
        return ready.exchangeToMono(response -> {
            int status = response.statusCode().value();
            if (request.abandonsBody()) {
                return Mono.just(new Received(status, -1));
            }
            return response.bodyToMono(byte[].class).map(body -> (long) body.length).defaultIfEmpty(0L)
                    .map(bytes -> new Received(status, bytes));
        });
    }

    /**
     * Reports what is still in flight and cancels it, frees the bodies left open, then closes the engine; what a
     * racing send started meanwhile is reported after. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        inFlight.forEach(WebExchange::abandon);
        leftOpen.closeAll();
        engine.close().run();
        inFlight.forEach(WebExchange::abandon);
    }

    @Override
    public String libraryVersion() {
        return SpringLayer.springWebflux() + " over " + engine.version();
    }

    @Override
    public Map<String, String> settings() {
        Map<String, String> s = engine.settings().get();
        s.put("bareClient", bareClient);
        s.put("layer", "Spring WebClient " + SpringLayer.versionOf(SpringLayer.springWebflux()) + " over "
                + engine.connector().getClass().getSimpleName() + ", built as Boot's WebClient.Builder builds it:"
                + " clientConnector and codecs only, no filters");
        s.put("bootWouldPick", SpringLayer.BOOT_CONNECTOR + "; " + SpringLayer.BOOT_ENGINE);
        s.put("codecMaxInMemorySize", maxInMemorySize() + " (ByteArrayDecoder of the live exchange strategies; -1:"
                + " unlimited); Spring's and Boot's default 262144 would fail a larger body read as byte[]");
        s.put("status", "exchangeToMono: no status handler runs, a 4xx or 5xx is read like a 2xx");
        s.put("body", "bodyToMono(byte[].class): ByteArrayDecoder joins the body into one array");
        s.put("bodyAbandoned", "the response left unread in exchangeToMono: Spring releases it with releaseBody(),"
                + " which reads the body to its end");
        return Collections.unmodifiableMap(s);
    }

    /** The byte[] decoder's limit, as the live strategies have it; -2 when no such decoder is found. */
    private int maxInMemorySize() {
        return strategies.messageReaders().stream()
                .filter(r -> r instanceof DecoderHttpMessageReader<?> d && d.getDecoder() instanceof ByteArrayDecoder)
                .mapToInt(r -> ((ByteArrayDecoder) ((DecoderHttpMessageReader<?>) r).getDecoder()).getMaxInMemorySize())
                .findFirst().orElse(-2);
    }

    @Override
    public String name() {
        return name;
    }

    private record Received(int status, long bytes) {
    }
}
