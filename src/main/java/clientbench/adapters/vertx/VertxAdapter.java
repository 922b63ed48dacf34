package clientbench.adapters.vertx;

import clientbench.adapters.support.AdapterSettings;
import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.LibraryVersion;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Vert.x 5 core {@code HttpClient} (futures), on a Vert.x instance of its own, used the way a Vert.x
 * application uses it: from event-loop contexts, one client per context. Built by {@link VertxClients}.
 * Docs: https://vertx.io/docs/vertx-core/java/#_writing_http_servers_and_clients
 *
 * <p>Settings that differ from the client's defaults:
 * <ul>
 *   <li>its own {@code Vertx} (closed by close()), eventLoopPoolSize = ioThreads when set (default
 *       2 x cores), preferNativeTransport true (default false: NIO), so epoll where available like the
 *       other Netty clients; class-path resolving and file caching off, so it makes no cache directory;</li>
 *   <li>requests are not made from the caller's thread: from a non-Vert.x thread the client creates a new
 *       context for every request, all on one event loop, and puts every connection on that loop. The adapter
 *       deploys a verticle with one instance per event loop (HTTP/2: one) and keeps its contexts; each
 *       request is run on the next context in turn ({@code runOnContext}), or on the caller's own context when
 *       the caller already runs on one of them, and uses that context's client, so connections and callbacks
 *       spread over the loops and stay on them;</li>
 *   <li>HTTP/1.1: {@code PoolOptions} http1MaxSize = maxConnections split over the clients (default 5 each);
 *       HTTP/2: one client, http2MaxSize 1 (the default, pinned) and http2MultiplexingLimit 100 (default: the
 *       server's SETTINGS_MAX_CONCURRENT_STREAMS); the wait queue stays unbounded (maxWaitQueueSize -1, the
 *       default), and a request waits in it for at most requestTimeout (connect timeout per request);</li>
 *   <li>protocol pinned: HTTP/1.1 with ALPN off, h2c by prior knowledge (http2ClearTextUpgrade false;
 *       default an Upgrade), h2 with ALPN offering h2 only (alpnVersions [HTTP_2]; default h2, http/1.1,
 *       http/1.0); TLS on the JDK's JSSE ({@code JdkSSLEngineOptions}; default: OpenSSL when present);
 *       keep-alive on, decompression off, followRedirects false per request; cookies: the core client keeps none;</li>
 *   <li>TCP connect timeout from the config (default 60 s); request idle timeout = requestTimeout (default
 *       none), and a timer resets the request when requestTimeout has passed since send(), so it bounds
 *       the whole exchange;</li>
 *   <li>{@code Accept-Encoding: identity} sent explicitly; trustAll and no host verification when asked.</li>
 * </ul>
 * The body is counted buffer by buffer in the response handler and never aggregated.
 */
public final class VertxAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final VertxClients clients;
    private final Vertx vertx;
    private final List<Context> lanes;
    private final AtomicInteger next = new AtomicInteger();
    private volatile boolean closed;

    public VertxAdapter(AdapterConfig config) {
        this.config = config;
        this.clients = VertxClients.start(config);
        this.vertx = clients.vertx();
        this.lanes = clients.contexts();
    }

    @Override
    public void send(Request request, Completion completion) {
        if (closed) {
            completion.complete(Outcome.REJECTED, 0, new RejectedExecutionException(name() + " is closed"));
            return;
        }
        long deadlineNanos = System.nanoTime() + config.requestTimeout().toNanos();
        Context current = Vertx.currentContext();
        if (current != null && current.get(VertxClients.CLIENT) != null && current.owner() == vertx) {
            exchange(current, request, completion, deadlineNanos); // already on one of the lanes
        } else {
            Context lane = lanes.get(Math.floorMod(next.getAndIncrement(), lanes.size()));
            try {
                lane.runOnContext(v -> exchange(lane, request, completion, deadlineNanos));
            } catch (RuntimeException e) { // the loop is gone: close() won the race with this send
                completion.complete(Outcome.REJECTED, 0, e);
            }
        }
    }

    /**
     * Runs on the lane's event loop: the request, its connection and its callbacks all stay there. A send that
     * raced with close() finds the client closed, which Vert.x throws rather than fails the future with
     * ("Client is closed", seen in the contract test's log as an unhandled exception on the loop, the request
     * never reported): reported as {@code REJECTED}, like every send after close().
     */
    private void exchange(Context lane, Request request, Completion completion, long deadlineNanos) {
        Future<HttpClientRequest> opened;
        try {
            opened = VertxClients.client(lane).request(buildOptions(request));
        } catch (RuntimeException e) {
            completion.complete(closed ? Outcome.REJECTED : outcomeOf(e), 0, e);
            return;
        }
        exchange(opened, request, completion, deadlineNanos);
    }

    private RequestOptions buildOptions(Request request) {
        long timeoutMillis = config.requestTimeout().toMillis();
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.valueOf(request.method()))
                .setAbsoluteURI(request.uri().toString())
                .setFollowRedirects(false)
                .setConnectTimeout(timeoutMillis)
                .setIdleTimeout(timeoutMillis);
        request.headers().forEach(h -> options.addHeader(h.name(), h.value()));
        if (request.hasBody()) {
            options.putHeader("Content-Type", request.contentType());
        }
        return options;
    }

    private void exchange(Future<HttpClientRequest> opened, Request request, Completion completion, long deadlineNanos) {
        long timeoutMillis = config.requestTimeout().toMillis();
        Exchange exchange = new Exchange();
        opened.compose(req -> {
            long left = Math.max(1, (deadlineNanos - System.nanoTime()) / 1_000_000);
            long timer = vertx.setTimer(left, id -> {
                exchange.expired = true;
                req.reset(0, new TimeoutException("request timeout of " + timeoutMillis + " ms"));
            });
            Future<HttpClientResponse> sent = request.hasBody() ? req.send(Buffer.buffer(request.body())) : req.send();
            return sent.compose(response -> {
                exchange.status = response.statusCode();
                exchange.version = response.version();
                response.handler(b -> exchange.bytes += b.length());
                return response.end();
            }).andThen(done -> vertx.cancelTimer(timer));
        }).onComplete(done -> {
            if (done.failed()) {
                completion.complete(exchange.expired ? Outcome.TIMEOUT : outcomeOf(done.cause()), 0, done.cause());
            } else if ((exchange.version == HttpVersion.HTTP_2) != AdapterSettings.http2(config)) {
                completion.complete(Outcome.OTHER, exchange.status, exchange.bytes,
                        AdapterSettings.wrongVersion(config, String.valueOf(exchange.version)));
            } else {
                completion.complete(Outcomes.ofResponse(request, exchange.status, exchange.bytes),
                        exchange.status, exchange.bytes, null);
            }
        });
    }

    @Override
    public void close() {
        closed = true;
        try {
            vertx.close().await(Duration.ofSeconds(10)); // undeploys, closes the clients and connections, then the loops
        } catch (TimeoutException e) {
            throw new IllegalStateException("Vert.x did not close within 10 s", e);
        }
    }

    @Override
    public String libraryVersion() {
        return LibraryVersion.of(Vertx.class, "io.vertx", "vertx-core");
    }

    @Override
    public Map<String, String> settings() {
        String seen = clients.observed();
        if (seen == null) {
            return clients.settings();
        }
        Map<String, String> s = new LinkedHashMap<>(clients.settings());
        s.put("observedConnection", seen);
        return Collections.unmodifiableMap(s);
    }

    @Override
    public String name() {
        return "vertx";
    }

    /** Vert.x reports a connection closed under a request, and a full wait queue, with no IOException. */
    static Outcome outcomeOf(Throwable failure) {
        for (Throwable c : Outcomes.causes(failure)) {
            if (c instanceof HttpClosedException) {
                return Outcome.RESET;
            }
            if (c instanceof ConnectionPoolTooBusyException) {
                return Outcome.REJECTED; // only with a bounded maxWaitQueueSize, which the adapter keeps unbounded
            }
        }
        return Outcomes.ofThrowable(failure);
    }

    /** One request's state; written on its lane's event loop, read there and by the timer (same loop). */
    private static final class Exchange {
        int status;
        HttpVersion version;
        long bytes;
        volatile boolean expired;
    }
}
