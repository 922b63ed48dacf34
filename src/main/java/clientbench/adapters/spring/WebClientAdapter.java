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
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.reactive.function.BodyExtractors;
import org.springframework.web.reactive.function.client.DefaultClientRequestObservationConvention;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;

/**
 * Spring's WebClient over one engine's connector ({@link WebClients}), async: {@code retrieve()} with error statuses read
 * as responses, the body counted as it passes and released; the timeout and bookkeeping of the bare adapter of its
 * engine ({@link WebDeadline}, {@link WebInFlight}). Docs: docs/reference/clients.md#spring-webclient
 */
public abstract class WebClientAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final String name;
    /** The suite's client of the same engine on the same threads: what the layer's cost is measured over. */
    private final String bareClient;
    private final WebClients.Engine engine;
    private final WebClient client;
    private final OpenBodies leftOpen = new OpenBodies();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Null: no observation, Spring's default. */
    private final BootActuator actuator;

    WebClientAdapter(AdapterConfig config, String name, String bareClient, WebClients.Builder engine) {
        this(config, name, bareClient, engine, false);
    }

    /** @param observed observed as Boot with Actuator observes it ({@link BootActuator}) */
    WebClientAdapter(AdapterConfig config, String name, String bareClient, WebClients.Builder engine, boolean observed) {
        AdapterSettings.refuseHttp2(name, config, SpringLayer.NO_HTTP2);
        this.config = config;
        this.name = name;
        this.bareClient = bareClient;
        this.engine = engine.build(config, name);
        this.actuator = observed ? new BootActuator() : null;
        // Error statuses read as responses, by one client-wide handler that raises nothing, set once as users set it.
        WebClient.Builder builder = WebClient.builder().clientConnector(this.engine.connector())
                .defaultStatusHandler(HttpStatusCode::isError, response -> Mono.empty());
        if (observed) { // as Boot's ObservationWebClientCustomizer
            builder.observationRegistry(actuator.registry()).observationConvention(
                    new DefaultClientRequestObservationConvention(BootActuator.NAME));
        }
        this.client = builder.build();
    }

    @Override
    public void send(Request request, Completion completion) {
        if (closed.get()) {
            completion.complete(Outcome.REJECTED, 0, new RejectedExecutionException(name + " is closed"));
            return;
        }
        WebExchange exchange = new WebExchange(request, completion, engine.inFlight(), engine.classify());
        engine.inFlight().started(exchange);
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
        WebDeadline deadline = engine.deadline();
        Mono<Received> answer = deadline.onAnswer(exchange(exchange.request(), left), left);
        if (permits != null) {
            answer = answer.doFinally(signal -> permits.release());
        }
        try {
            exchange.subscribed(answer.subscribe(r -> exchange.received(r.status(), r.bytes()), exchange::failed,
                    exchange::completedEmpty));
            deadline.onStart(exchange, left);
        } catch (RuntimeException e) { // refused before it started, e.g. by a client closing under it
            exchange.failed(e);
        }
    }

    /**
     * The request as WebClient's users write it, built on every send: {@code retrieve()}, the error statuses read as
     * responses (the client's default status handler raises nothing), the body's buffers counted and released as they pass.
     */
    private Mono<Received> exchange(Request request, Duration left) {
        WebClient.RequestBodySpec spec = client.method(HttpMethod.valueOf(request.method())).uri(request.uri())
                .headers(h -> SpringLayer.headers(request, h));
        WebClient.RequestHeadersSpec<?> ready = engine.deadline().onRequest(request.hasBody()
                ? spec.contentType(SpringLayer.contentType(request)).bodyValue(request.body())
                : spec, left);
        WebClient.ResponseSpec response = ready.retrieve();
        if (request.abandonsBody()) { // released unread: Spring's releaseBody() reads it to its end
            return response.toBodilessEntity().map(entity -> new Received(entity.getStatusCode().value(), -1));
        }
        return response.toEntityFlux(BodyExtractors.toDataBuffers()).flatMap(entity -> {
            int status = entity.getStatusCode().value();
            if (request.leavesBodyOpen()) { // the body's Flux never subscribed: nothing reads or releases it
                leftOpen.hold(entity, e -> e.getBody().subscribe(DataBufferUtils::release).dispose());
                return Mono.just(new Received(status, -1));
            }
            return entity.getBody().reduce(0L, WebClientAdapter::countAndRelease).map(bytes -> new Received(status, bytes));
        });
    }

    private static long countAndRelease(long bytes, DataBuffer buffer) {
        long sum = bytes + buffer.readableByteCount();
        DataBufferUtils.release(buffer);
        return sum;
    }

    /**
     * Frees the bodies left open, then closes the engine as the bare adapter's bookkeeping does ({@link WebInFlight}):
     * every request sent before is reported by the time it returns. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        leftOpen.closeAll();
        engine.inFlight().close(engine.close());
        engine.deadline().close();
        if (actuator != null) {
            actuator.close();
        }
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
                + " clientConnector, no filters; and defaultStatusHandler below");
        s.put("bootWouldPick", SpringLayer.BOOT_CONNECTOR + "; " + SpringLayer.BOOT_ENGINE);
        s.put("status", "retrieve() with the builder's defaultStatusHandler(isError, no exception), set once: a 4xx or"
                + " 5xx is read like a 2xx");
        s.put("body", "toEntityFlux(BodyExtractors.toDataBuffers()): each buffer counted and released as it passes,"
                + " as the bare adapter counts; no codec, no byte[]");
        s.put("bodyAbandoned", "toBodilessEntity(): Spring releases the body with releaseBody(), which reads it to its end");
        s.put("inFlight", engine.inFlight().describe());
        BootActuator.record(s, actuator);
        return Collections.unmodifiableMap(s);
    }

    @Override
    public String name() {
        return name;
    }

    private record Received(int status, long bytes) {
    }
}
