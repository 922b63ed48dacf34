package clientbench.adapters.vertx;

import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.LibraryVersion;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import clientbench.adapters.support.AdapterSettings;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.FileSystemOptions;
import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * Vert.x 5 core {@code HttpClient} (futures), on a Vert.x instance of its own.
 * Docs: https://vertx.io/docs/vertx-core/java/#_writing_http_servers_and_clients
 *
 * <p>Settings that differ from the client's defaults:
 * <ul>
 *   <li>its own {@code Vertx} (closed by close()), eventLoopPoolSize = ioThreads when set (default
 *       2 x cores), NIO as by default; class-path resolving and file caching off, so it makes no cache
 *       directory (default on);</li>
 *   <li>{@code PoolOptions} http1MaxSize = maxConnections (default 5); the wait queue stays unbounded
 *       (maxWaitQueueSize -1, the default), and a request waits in it for at most requestTimeout
 *       ({@code RequestOptions} connect timeout, default none);</li>
 *   <li>protocol HTTP/1.1, keep-alive on, decompression off, ALPN off (all defaults, pinned);
 *       followRedirects false per request (the default, pinned); cookies: the core client keeps none;</li>
 *   <li>TCP connect timeout from the config (default 60 s); request idle timeout = requestTimeout (default
 *       none), and a timer resets the request when requestTimeout has passed since send(), so it bounds
 *       the whole exchange;</li>
 *   <li>{@code Accept-Encoding: identity} sent explicitly; trustAll and no host verification when asked.</li>
 * </ul>
 * The body is counted buffer by buffer in the response handler and never aggregated.
 */
public final class VertxAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final Vertx vertx;
    private final HttpClientAgent client;
    private final Map<String, String> settings;
    private volatile boolean closed;

    public VertxAdapter(AdapterConfig config) {
        AdapterSettings.requireHttp1(name(), config);
        this.config = config;
        Map<String, String> s = AdapterSettings.common(config,
                "pool http1MaxSize; more wait in its unbounded wait queue, at most requestTimeout",
                "a timer resets the request after requestTimeout (whole exchange); idle timeout the same");
        s.put("threading", "the adapter's own Vertx event loops (NIO), callbacks on them");
        this.settings = Collections.unmodifiableMap(s);
        VertxOptions options = new VertxOptions().setFileSystemOptions(
                new FileSystemOptions().setClassPathResolvingEnabled(false).setFileCachingEnabled(false));
        if (config.ioThreads() > 0) {
            options.setEventLoopPoolSize(config.ioThreads());
        }
        this.vertx = Vertx.vertx(options);
        HttpClientOptions http = new HttpClientOptions()
                .setProtocolVersion(HttpVersion.HTTP_1_1)
                .setKeepAlive(true)
                .setDecompressionSupported(false)
                .setUseAlpn(false)
                .setConnectTimeout((int) config.connectTimeout().toMillis());
        if (config.trustAllCertificates() && config.protocol().tls()) {
            http.setSsl(true).setTrustAll(true).setVerifyHost(false);
        }
        this.client = vertx.createHttpClient(http, new PoolOptions().setHttp1MaxSize(config.maxConnections()));
    }

    @Override
    public void send(Request request, Completion completion) {
        if (closed) {
            completion.complete(Outcome.REJECTED, 0, new RejectedExecutionException(name() + " is closed"));
            return;
        }
        long timeoutMillis = config.requestTimeout().toMillis();
        long deadlineNanos = System.nanoTime() + config.requestTimeout().toNanos();
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
        Exchange exchange = new Exchange();
        client.request(options).compose(req -> {
            long left = Math.max(1, (deadlineNanos - System.nanoTime()) / 1_000_000);
            long timer = vertx.setTimer(left, id -> {
                exchange.expired = true;
                req.reset(0, new TimeoutException("request timeout of " + timeoutMillis + " ms"));
            });
            Future<HttpClientResponse> sent = request.hasBody() ? req.send(Buffer.buffer(request.body())) : req.send();
            return sent.compose(response -> {
                exchange.status = response.statusCode();
                response.handler(b -> exchange.bytes += b.length());
                return response.end();
            }).andThen(done -> vertx.cancelTimer(timer));
        }).onComplete(done -> {
            if (done.succeeded()) {
                completion.complete(Outcomes.ofResponse(request, exchange.status, exchange.bytes),
                        exchange.status, exchange.bytes, null);
            } else {
                completion.complete(exchange.expired ? Outcome.TIMEOUT : outcomeOf(done.cause()), 0, done.cause());
            }
        });
    }

    @Override
    public void close() {
        closed = true;
        try {
            vertx.close().await(Duration.ofSeconds(10)); // closes the client and its connections, then the event loops
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
        return settings;
    }

    @Override
    public String name() {
        return "vertx";
    }

    /** Vert.x reports a connection closed under a request, and a full wait queue, with no IOException. */
    static Outcome outcomeOf(Throwable failure) {
        for (Throwable c = failure; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof HttpClosedException) {
                return Outcome.RESET;
            }
            if (c instanceof ConnectionPoolTooBusyException) {
                return Outcome.REJECTED; // only with a bounded maxWaitQueueSize, which the adapter keeps unbounded
            }
        }
        return Outcomes.ofThrowable(failure);
    }

    /** One request's state; written on the event loop of its connection, read there and by the timer. */
    private static final class Exchange {
        volatile int status;
        volatile long bytes;
        volatile boolean expired;
    }
}
