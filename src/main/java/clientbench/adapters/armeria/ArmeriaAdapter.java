package clientbench.adapters.armeria;

import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.AsyncPermits;
import clientbench.adapters.support.Http2Ramp;
import clientbench.adapters.support.NettyLibrary;
import clientbench.adapters.support.NoDelayTally;
import clientbench.adapters.support.OpenBodies;
import clientbench.adapters.support.OpenChannels;
import clientbench.adapters.support.PendingCount;
import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.LibraryVersion;
import clientbench.api.Outcome;
import clientbench.api.Request;
import com.linecorp.armeria.client.ClientFactory;
import com.linecorp.armeria.client.ClientRequestContextCaptor;
import com.linecorp.armeria.client.Clients;
import com.linecorp.armeria.client.RequestOptions;
import com.linecorp.armeria.client.WebClient;
import com.linecorp.armeria.common.HttpData;
import com.linecorp.armeria.common.HttpMethod;
import com.linecorp.armeria.common.HttpRequest;
import com.linecorp.armeria.common.HttpResponse;
import com.linecorp.armeria.common.MediaType;
import com.linecorp.armeria.common.RequestHeaders;
import com.linecorp.armeria.common.RequestHeadersBuilder;
import com.linecorp.armeria.common.SplitHttpResponse;
import io.netty.channel.EventLoopGroup;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Armeria's WebClient, async, built by {@link ArmeriaClients}. Off its defaults: own loops, HTTP/1.1 over all of them;
 * protocol pinned; JSSE; total timeout from the start; body unlimited; a FIFO queue here for maxConnections, as Armeria
 * has no connection limit ({@link Http2Ramp}); {@link OpenChannels}. Docs: https://armeria.dev/docs/client-http
 */
public final class ArmeriaAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final EventLoopGroup loops;
    private final ClientFactory factory;
    private final WebClient client;
    private final AsyncPermits permits;
    private final Http2Ramp ramp;
    private final NoDelayTally noDelay = new NoDelayTally("as it connected, from its Netty channel");
    private final Set<ArmeriaExchange> inFlight = ConcurrentHashMap.newKeySet();
    /** Requests sent and not yet reported, which close() waits for. */
    private final PendingCount unreported = new PendingCount();
    private final OpenBodies leftOpen = new OpenBodies();
    private final OpenChannels channels = new OpenChannels();
    private final AtomicBoolean closed = new AtomicBoolean();

    public ArmeriaAdapter(AdapterConfig config) {
        this.config = config;
        this.permits = new AsyncPermits(AdapterSettings.adapterLimits(config) ? Http2Ramp.initialLimit(config) : Integer.MAX_VALUE);
        this.ramp = new Http2Ramp(() -> permits.grow(Http2Ramp.STREAMS - Http2Ramp.initialLimit(config)));
        this.loops = ArmeriaClients.loops(config);
        this.factory = ArmeriaClients.factory(config, loops, noDelay, channels);
        this.client = ArmeriaClients.client(config, factory);
    }

    @Override
    public void send(Request request, Completion completion) {
        if (closed.get()) {
            completion.complete(Outcome.REJECTED, 0, new RejectedExecutionException(name() + " is closed"));
            return;
        }
        ArmeriaExchange exchange = new ArmeriaExchange(request, completion, inFlight, unreported, permits::release);
        unreported.add();
        inFlight.add(exchange);
        long queuedAtNanos = System.nanoTime();
        permits.submit(() -> start(exchange, queuedAtNanos));
    }

    /** Runs holding a permit, which the exchange gives back as it reports. */
    private void start(ArmeriaExchange exchange, long queuedAtNanos) {
        if (!exchange.permitted()) {
            return;
        }
        Request request = exchange.request();
        Duration left = config.requestTimeout().minusNanos(System.nanoTime() - queuedAtNanos);
        if (closed.get()) {
            exchange.failed(Outcome.REJECTED, new RejectedExecutionException(name() + " is closed"));
            return;
        }
        if (left.isNegative() || left.isZero()) {
            exchange.failed(Outcome.TIMEOUT, new TimeoutException("request timed out while queued for a connection"));
            return;
        }
        HttpResponse response;
        try (ClientRequestContextCaptor captor = Clients.newContextCaptor()) {
            response = client.execute(toArmeria(request), RequestOptions.builder().responseTimeout(left).build());
            if (captor.size() > 0) {
                // withoutContext: the next request, started by the permit, runs in no finished request's context
                exchange.startedOn(captor.get().eventLoop().withoutContext());
            }
        } catch (RuntimeException e) { // refused before it started, e.g. by a factory closing under it
            exchange.failed(ArmeriaClients.outcomeOf(e), e);
            return;
        }
        if (!request.abandonsBody() && !request.leavesBodyOpen()) {
            response.aggregate().whenComplete((whole, failure) -> {
                if (failure != null) {
                    exchange.failed(ArmeriaClients.outcomeOf(failure), failure);
                    return;
                }
                ramp.onResponse(AdapterSettings.http2(config)); // the protocol is pinned: H2C and H2 speak nothing else
                exchange.received(whole.status().code(), whole.content().length());
            });
            return;
        }
        SplitHttpResponse split = response.split(); // the head alone; the body aborted, or left open until close()
        split.headers().whenComplete((headers, failure) -> {
            if (failure != null) {
                exchange.failed(ArmeriaClients.outcomeOf(failure), failure);
                return;
            }
            if (request.leavesBodyOpen()) {
                leftOpen.hold(split, s -> s.body().abort());
            } else {
                split.body().abort();
            }
            ramp.onResponse(AdapterSettings.http2(config));
            exchange.received(headers.status().code(), -1);
        });
    }

    /** The request as Armeria's users write it: its headers, the body with its type; Armeria adds Content-Length. */
    private static HttpRequest toArmeria(Request request) {
        URI uri = request.uri();
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        RequestHeadersBuilder headers = RequestHeaders.builder(HttpMethod.valueOf(request.method()),
                uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery());
        request.headers().forEach(h -> headers.add(h.name(), h.value()));
        if (!request.hasBody()) {
            return HttpRequest.of(headers.build());
        }
        headers.contentType(MediaType.parse(request.contentType()));
        return HttpRequest.of(headers.build(), HttpData.wrap(request.body()));
    }

    /**
     * Frees the bodies left open, closes the factory (its pooled connections), those in use or connecting, and the
     * loops, then reports what a callback on the stopped loops never will, and waits for reports under way on other
     * threads (an exchange that ended as close() began may not have reported yet). Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        leftOpen.closeAll();
        factory.close();
        channels.closeAll(Duration.ofSeconds(5)); // neither the factory's close nor the loops' shutdown closes these
        loops.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly(TimeUnit.SECONDS.toMillis(6));
        inFlight.forEach(ArmeriaExchange::abandon);
        unreported.awaitNone(Duration.ofSeconds(5));
    }

    @Override
    public String libraryVersion() {
        return LibraryVersion.of(WebClient.class, "com.linecorp.armeria", "armeria");
    }

    @Override
    public Map<String, String> settings() {
        String limit = AdapterSettings.adapterLimits(config)
                ? "at most maxConnections exchanges at once; more wait in a queue in the adapter, without blocking the"
                + " caller (Armeria has no per-endpoint connection limit: one HTTP/1.1 connection per request in flight)"
                : "none: Armeria has no per-endpoint limit, and the adapter adds none (the library's own)";
        return NettyLibrary.addTo(noDelay.addTo(ArmeriaClients.settings(config, client, factory,
                AdapterSettings.http2(config) ? limit + "; on HTTP/2 " + Http2Ramp.LIMIT : limit)));
    }

    @Override
    public String name() {
        return "armeria";
    }
}
