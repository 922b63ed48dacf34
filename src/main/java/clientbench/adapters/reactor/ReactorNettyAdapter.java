package clientbench.adapters.reactor;

import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.LibraryVersion;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import clientbench.api.TrustAllCertificates;
import clientbench.adapters.support.AdapterSettings;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.ssl.SslContextBuilder;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.http.Http11SslContextSpec;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;
import reactor.netty.tcp.SslProvider;

/**
 * Reactor Netty 1.3 {@code HttpClient}, one subscription per request.
 * Docs: https://projectreactor.io/docs/netty/release/reference/http-client.html
 *
 * <p>Settings that differ from the client's defaults:
 * <ul>
 *   <li>a {@code ConnectionProvider} of its own (default: the JVM-wide one of {@code HttpResources}):
 *       maxConnections = maxConnections (default 2 x max(cores, 8)); pendingAcquireMaxCount -1, an unbounded
 *       queue like the other clients' (default 2 x maxConnections, beyond which it rejects);
 *       pendingAcquireTimeout = requestTimeout (default 45 s); the pending-acquire timer on the adapter's
 *       event loops (default: Reactor's JVM-wide {@code Schedulers.parallel()}, whose threads outlive close());</li>
 *   <li>{@code LoopResources} of its own, daemon threads named {@code reactor-adapter-*}, ioThreads of them
 *       when set (default: the JVM-wide loops, max(cores, 4)); epoll when available, as by default;</li>
 *   <li>protocol HTTP/1.1 (the default, pinned); compress false and followRedirect false (the defaults,
 *       pinned); disableRetry true (default: one retry when a pooled connection closes before the request
 *       is sent); cookies: Reactor Netty keeps none;</li>
 *   <li>connect timeout from the config (default 30 s); responseTimeout = requestTimeout (default none;
 *       it bounds the time between reads), and a whole-exchange {@code Mono.timeout} of requestTimeout,
 *       scheduled on the adapter's event loops;</li>
 *   <li>{@code Accept-Encoding: identity} sent explicitly; trust-all TLS ({@code Http11SslContextSpec},
 *       no ALPN) when asked.</li>
 * </ul>
 * The body is counted buffer by buffer as it arrives and never aggregated.
 */
public final class ReactorNettyAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final LoopResources loops;
    private final ConnectionProvider pool;
    private final Scheduler timeouts;
    private final HttpClient get;
    private final HttpClient post;
    private final Map<String, String> settings;
    private volatile boolean closed;

    public ReactorNettyAdapter(AdapterConfig config) {
        AdapterSettings.requireHttp1(name(), config);
        this.config = config;
        Map<String, String> s = AdapterSettings.common(config,
                "ConnectionProvider maxConnections; more wait in its unbounded pending-acquire queue, at most requestTimeout",
                "Mono.timeout over the whole exchange, responseTimeout between reads; both requestTimeout");
        s.put("threading", "the adapter's own Netty event loops (epoll when available), callbacks on them");
        this.settings = Collections.unmodifiableMap(s);
        int workers = config.ioThreads() > 0 ? config.ioThreads() : LoopResources.DEFAULT_IO_WORKER_COUNT;
        this.loops = LoopResources.create("reactor-adapter", workers, true);
        EventLoopGroup group = loops.onClient(LoopResources.DEFAULT_NATIVE);
        this.timeouts = Schedulers.fromExecutorService(group, "reactor-adapter-timeouts");
        this.pool = ConnectionProvider.builder(name())
                .maxConnections(config.maxConnections())
                .pendingAcquireMaxCount(-1)
                .pendingAcquireTimeout(config.requestTimeout())
                .pendingAcquireTimer((task, delay) -> {
                    ScheduledFuture<?> f = group.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
                    return () -> f.cancel(false);
                })
                .build();
        HttpClient client = HttpClient.create(pool)
                .runOn(loops)
                .protocol(HttpProtocol.HTTP11)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) config.connectTimeout().toMillis())
                .responseTimeout(config.requestTimeout())
                .compress(false)
                .followRedirect(false)
                .disableRetry(true)
                ;
        if (config.trustAllCertificates() && config.protocol().tls()) {
            SslProvider.GenericSslContextSpec<SslContextBuilder> tls = Http11SslContextSpec.forClient()
                    .configure(b -> b.trustManager(TrustAllCertificates.trustManager()));
            client = client.secure(spec -> spec.sslContext(tls));
        }
        this.get = client;
        this.post = client;
    }

    @Override
    public void send(Request request, Completion completion) {
        if (closed) {
            completion.complete(Outcome.REJECTED, 0, new RejectedExecutionException(name() + " is closed"));
            return;
        }
        HttpClient withHeaders = get.headers(h -> {
            request.headers().forEach(x -> h.add(x.name(), x.value()));
            if (request.hasBody()) {
                h.set("Content-Type", request.contentType());
            }
        });
        HttpClient.RequestSender sender = withHeaders.request(HttpMethod.valueOf(request.method())).uri(request.uri());
        HttpClient.ResponseReceiver<?> exchange = request.hasBody()
                ? sender.send(Mono.fromCallable(() -> Unpooled.wrappedBuffer(request.body())))
                : sender;
        exchange.response((response, body) -> body.reduce(0L, (n, buf) -> n + buf.readableBytes())
                        .map(bytes -> new Received(response.status().code(), bytes)))
                .single()
                .timeout(config.requestTimeout(), timeouts)
                .subscribe(
                        r -> completion.complete(Outcomes.ofResponse(request, r.status, r.bytes), r.status, r.bytes, null),
                        e -> completion.complete(outcomeOf(e), 0, e));
    }

    @Override
    public void close() {
        closed = true;
        Duration max = Duration.ofSeconds(5);
        pool.disposeLater().block(max); // closes every connection; queued requests fail
        loops.disposeLater(Duration.ZERO, max).block(max.plusSeconds(1)); // ends when the event loops have
    }

    @Override
    public String libraryVersion() {
        return LibraryVersion.of(HttpClient.class, "io.projectreactor.netty", "reactor-netty-http");
    }

    @Override
    public Map<String, String> settings() {
        return settings;
    }

    @Override
    public String name() {
        return "reactor";
    }

    /**
     * Netty's read timeout is no {@code java.util.concurrent.TimeoutException}; the pool's exceptions are
     * shaded into Reactor Netty's internal packages, so they are matched by simple name.
     */
    static Outcome outcomeOf(Throwable failure) {
        for (Throwable c = failure; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof io.netty.handler.timeout.TimeoutException) {
                return Outcome.TIMEOUT;
            }
            String type = c.getClass().getSimpleName();
            if (type.equals("PoolAcquirePendingLimitException") || type.equals("PoolShutdownException")) {
                return Outcome.REJECTED;
            }
        }
        return Outcomes.ofThrowable(failure);
    }

    private record Received(int status, long bytes) {
    }
}
