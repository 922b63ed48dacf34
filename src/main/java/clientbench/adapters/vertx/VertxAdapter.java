package clientbench.adapters.vertx;

import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.NettyLibrary;
import clientbench.adapters.support.OpenBodies;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Vert.x 5 core {@code HttpClient} on its own Vertx, one client per event-loop context, each request run on the next
 * (a foreign thread would put every connection on one loop). Off its defaults: native transport, pool split over the
 * clients, protocol pinned, a timer bounding the exchange (with the library's own timeout, the request's idle timeout
 * alone). Docs: https://vertx.io/docs/vertx-core/java/
 */
public final class VertxAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final VertxClients clients;
    private final Vertx vertx;
    private final List<Context> lanes;
    private final AtomicInteger next = new AtomicInteger();
    private final OpenBodies leftOpen = new OpenBodies();
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
     * Runs on the lane's event loop, so the request, its connection and callbacks stay there. A send racing close()
     * finds the client closed, which Vert.x throws rather than fails the future with: reported as {@code REJECTED},
     * like every send after close().
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
            long timer = config.tuning().libraryTimeout() ? -1 : vertx.setTimer(left, id -> {
                exchange.expired = true;
                req.reset(0, new TimeoutException("request timeout of " + timeoutMillis + " ms"));
            });
            Future<HttpClientResponse> sent = request.hasBody() ? req.send(Buffer.buffer(request.body())) : req.send();
            return sent.compose(response -> {
                exchange.status = response.statusCode();
                exchange.version = response.version();
                if (request.leavesBodyOpen()) { // paused, to be read later, and never resumed: the stream stays open
                    response.pause();
                    response.exceptionHandler(resetByClose -> { }); // close() resets it: the adapter's, nothing to log
                    leftOpen.hold(req, r -> r.reset());
                    exchange.bytes = -1;
                    return io.vertx.core.Future.<Void>succeededFuture();
                }
                if (request.abandonsBody()) { // no handler and no wait for the end: Vert.x decides what the body becomes
                    exchange.bytes = -1;
                    return io.vertx.core.Future.<Void>succeededFuture();
                }
                response.handler(b -> exchange.bytes += b.length());
                return response.end();
            }).andThen(done -> {
                if (timer >= 0) {
                    vertx.cancelTimer(timer);
                }
            });
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
        leftOpen.closeAll();
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
        Map<String, String> s = new LinkedHashMap<>(clients.settings());
        if (seen != null) {
            s.put("observedConnection", seen);
        }
        return NettyLibrary.addTo(s);
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
