package clientbench.adapters.ahc;

import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.AsyncPermits;
import clientbench.adapters.support.Http2Ramp;
import clientbench.adapters.support.NettyLibrary;
import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.LibraryVersion;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import org.asynchttpclient.AsyncHttpClient;
import org.asynchttpclient.DefaultAsyncHttpClient;
import org.asynchttpclient.RequestBuilder;

/**
 * AsyncHttpClient 3 (Netty), built by {@link AhcClients}. Docs: https://github.com/AsyncHttpClient/async-http-client
 * Off its defaults: maxConnections, no queue (a busy pool fails at once, {@code REJECTED}); HTTP/2 on one connection,
 * ramped to 99 streams around 3.0.13's bugs; no retries, cookies, decompression; in-flight requests kept for close().
 */
public final class AhcAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final AsyncHttpClient client;
    private final List<Thread> eventLoopThreads = new CopyOnWriteArrayList<>();
    private final Set<AhcExchange> inFlight = ConcurrentHashMap.newKeySet();
    /** HTTP/2 only: the adapter's limit on requests in flight; null over HTTP/1.1, where the client rejects. */
    private final AsyncPermits permits;
    private final Http2Ramp ramp;
    private final Map<String, String> settings;
    private final AhcExchange.Observed observed = new AhcExchange.Observed();
    private volatile boolean closed;

    public AhcAdapter(AdapterConfig config) {
        this.config = config;
        DefaultThreadFactory netty = new DefaultThreadFactory("AsyncHttpClient");
        this.client = new DefaultAsyncHttpClient(AhcClients.config(config, r -> {
            Thread t = netty.newThread(r);
            eventLoopThreads.add(t);
            return t;
        }));
        this.settings = AhcClients.settings(config, ((DefaultAsyncHttpClient) client).getEventLoopGroup(), client.getConfig());
        boolean http2 = AdapterSettings.http2(config);
        this.permits = http2 ? new AsyncPermits(Http2Ramp.initialLimit(config)) : null;
        this.ramp = new Http2Ramp(() -> permits.grow(AhcClients.H2_STREAMS - Http2Ramp.initialLimit(config)));
    }

    @Override
    public void send(Request request, Completion completion) {
        if (permits == null) {
            start(request, completion);
        } else {
            permits.submit(() -> start(request, completion));
        }
    }

    private void start(Request request, Completion completion) {
        if (closed) {
            if (permits != null) {
                permits.release();
            }
            completion.complete(Outcome.REJECTED, 0, new RejectedExecutionException(name() + " is closed"));
            return;
        }
        if (request.leavesBodyOpen()) {
            if (permits != null) {
                permits.release(); // a body left open holds its connection, not one of the adapter's permits
            }
            startLeavingBodyOpen(request, completion);
            return;
        }
        AhcExchange handler = new AhcExchange(config, request, completion, inFlight, permits, ramp, observed);
        inFlight.add(handler);
        try {
            client.executeRequest(toAhc(request), handler);
        } catch (RuntimeException e) { // refused before it started, e.g. after close()
            handler.onThrowable(e);
        }
    }

    /**
     * A body the caller leaves unread, in the API AsyncHttpClient's users call: {@code execute()}'s handler reads every
     * body into its Response, so the connection goes back to the pool whatever the caller then does with it.
     */
    private void startLeavingBodyOpen(Request request, Completion completion) {
        try {
            client.executeRequest(toAhc(request)).toCompletableFuture().whenComplete((response, failure) -> {
                if (failure != null) {
                    completion.complete(Outcomes.ofThrowable(failure), 0, failure);
                } else {
                    int status = response.getStatusCode();
                    completion.complete(Outcomes.ofResponse(request, status, -1), status, -1, null);
                }
            });
        } catch (RuntimeException e) { // refused before it started, e.g. after close()
            completion.complete(Outcomes.ofThrowable(e), 0, e);
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            client.close(); // stops the timer (joins its thread) and starts the event loops' shutdown
        } catch (Exception e) {
            throw new IllegalStateException("closing AsyncHttpClient failed", e);
        } finally {
            inFlight.forEach(AhcExchange::abandon); // each frees its permit, which rejects what waits for one
            for (Thread t : eventLoopThreads) {
                try {
                    t.join(5_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
    }

    @Override
    public String libraryVersion() {
        return LibraryVersion.of(AsyncHttpClient.class, "org.asynchttpclient", "async-http-client");
    }

    @Override
    public Map<String, String> settings() {
        String seen = observed.value;
        Map<String, String> s = new LinkedHashMap<>(settings);
        if (seen != null) {
            s.put("observedConnection", seen);
        }
        return NettyLibrary.addTo(observed.noDelay.addTo(s));
    }

    @Override
    public String name() {
        return "ahc";
    }

    /** Per call, as the client's users write it. */
    private static org.asynchttpclient.Request toAhc(Request request) {
        RequestBuilder b = new RequestBuilder(request.method()).setUrl(request.uri().toString());
        request.headers().forEach(h -> b.addHeader(h.name(), h.value()));
        if (request.hasBody()) {
            b.setHeader("Content-Type", request.contentType()).setBody(request.body());
        }
        return b.build();
    }
}
