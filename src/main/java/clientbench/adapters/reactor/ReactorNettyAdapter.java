package clientbench.adapters.reactor;

import clientbench.adapters.support.OpenBodies;
import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.LibraryVersion;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.http.HttpMethod;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

/**
 * Reactor Netty 1.3 {@code HttpClient}, built per call as users write it, settings from {@link ReactorClients}. Off its
 * defaults: its own pool and loops; protocol pinned; JSSE; no retry; one {@code Mono.timeout} (with the library's own
 * timeout, its {@code responseTimeout} instead); {@link OpenChannels}.
 * Docs: https://projectreactor.io/docs/netty/release/reference/http-client.html
 */
public final class ReactorNettyAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final LoopResources loops;
    private final EventLoopGroup group;
    private final ConnectionProvider pool;
    private final Scheduler timeouts;
    private final HttpClient client;
    private final Map<String, String> settings;
    private final Set<ReactorExchange> inFlight = ConcurrentHashMap.newKeySet();
    private final ReactorClients.Observed observed = new ReactorClients.Observed();
    private final OpenChannels channels = new OpenChannels();
    private final OpenBodies leftOpen = new OpenBodies();
    private volatile boolean closed;

    public ReactorNettyAdapter(AdapterConfig config) {
        this.config = config;
        int workers = config.ioThreads() > 0 ? config.ioThreads() : LoopResources.DEFAULT_IO_WORKER_COUNT;
        this.loops = LoopResources.create("reactor-adapter", workers, true);
        this.group = loops.onClient(LoopResources.DEFAULT_NATIVE);
        this.timeouts = Schedulers.fromExecutorService(group, "reactor-adapter-timeouts");
        this.pool = ReactorClients.pool(config, name(), group);
        HttpClient c = HttpClient.create(pool)
                .runOn(loops)
                .protocol(switch (config.protocol()) {
                    case HTTP1, HTTPS1 -> HttpProtocol.HTTP11;
                    case H2C -> HttpProtocol.H2C;
                    case H2 -> HttpProtocol.H2;
                })
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) config.connectTimeout().toMillis())
                .compress(false)
                .followRedirect(false)
                .disableRetry(!config.tuning().libraryRetries())
                .doOnChannelInit(observed.then(channels));
        if (config.protocol().tls()) {
            c = c.secure(spec -> spec.sslContext(ReactorClients.spec(config)));
        }
        if (config.tuning().libraryTimeout()) {
            c = c.responseTimeout(config.requestTimeout());
        }
        this.client = c;
        this.settings = ReactorClients.settings(config, group, pool, c.configuration().responseTimeout());
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
            leftOpen.hold(connection::dispose);
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
        Duration max = Duration.ofSeconds(5);
        pool.disposeLater().block(max); // closes every idle connection; queued requests fail
        channels.closeAll(max); // and those in use or connecting, which neither the pool nor the loops' shutdown close
        // The adapter's loops are this one group. Not loops.disposeLater(quiet, timeout): its timeout runs on
        // Reactor's JVM-wide Schedulers.parallel(), whose thread it starts and which outlives close().
        group.shutdownGracefully(0, max.toMillis(), TimeUnit.MILLISECONDS).awaitUninterruptibly(max.plusSeconds(1).toMillis());
        inFlight.forEach(ReactorExchange::abandon);
    }

    @Override
    public String libraryVersion() {
        return LibraryVersion.of(HttpClient.class, "io.projectreactor.netty", "reactor-netty-http");
    }

    @Override
    public Map<String, String> settings() {
        String seen = observed.value;
        Map<String, String> s = new LinkedHashMap<>(settings);
        if (seen != null) {
            s.put("observedConnection", seen);
        }
        return observed.noDelay.addTo(s);
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
        for (Throwable c : Outcomes.causes(failure)) {
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

    private record Received(int status, int majorVersion, long bytes) {
    }
}
