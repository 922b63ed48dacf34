package clientbench.adapters.ahc;

import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.AsyncPermits;
import clientbench.adapters.support.Http2Ramp;
import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.LibraryVersion;
import clientbench.api.Outcome;
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
 *
 * <p>Settings that differ from the client's defaults:
 * <ul>
 *   <li>HTTP/1.1: maxConnections and maxConnectionsPerHost = maxConnections (default unlimited). The client
 *       does not queue: with acquireFreeChannelTimeout left at its default 0, a request that finds every
 *       connection busy fails at once with {@code TooManyConnections(PerHost)Exception}, reported as
 *       {@code REJECTED}. That is AsyncHttpClient's own behaviour and is measured as such;</li>
 *   <li>http2Enabled false for http1 and https1 (default true: ALPN h2 over TLS). h2c: http2Enabled and
 *       http2CleartextEnabled (prior knowledge); h2: http2Enabled and a JSSE context of the adapter's whose ALPN
 *       offers h2 alone (the client's offers h2 and http/1.1). A response on another version is {@code OTHER};</li>
 *   <li>HTTP/2, around AsyncHttpClient 3.0.13's HTTP/2 bugs (each shown by {@code AhcHttp2LibraryBehaviourTest}):
 *       http2MaxConcurrentStreams 99 (default unlimited until the server's SETTINGS, and at the server's limit it
 *       overruns Netty's count); maxConnections 1; and in the adapter at most one request in flight until the
 *       first HTTP/2 response, then 99 ({@link Http2Ramp}, {@link AsyncPermits}), so concurrent first requests do
 *       not each open a connection, and no request waits in the client's own stream queue, where a request
 *       timing out closes the whole connection under the others;</li>
 *   <li>connectTimeout from the config (default 5 s); requestTimeout = requestTimeout (default 60 s,
 *       whole exchange); readTimeout = requestTimeout (default 60 s), so only the request timeout fires;</li>
 *   <li>maxRequestRetry 0 (default 5); cookie store none (default an in-memory store);
 *       enableAutomaticDecompression false (default true); followRedirect false is the default;</li>
 *   <li>responseBodyPartFactory LAZY (default EAGER copies every chunk into a new array; the handler only
 *       counts bytes);</li>
 *   <li>useNativeTransport and useOnlyEpollNativeTransport true: epoll where available, as the client picks by
 *       itself when the epoll jar is present (default false: auto-select), NIO otherwise; useOpenSsl false (the
 *       default, pinned: JSSE as for every client); ioThreadsCount = ioThreads when set (default: cores);</li>
 *   <li>shutdownQuietPeriod 100 ms (default 2 s): with 0, a connect handed to the event loops just before
 *       close() can leave a connection open; a thread factory of its own (Netty's {@code DefaultThreadFactory},
 *       as the default) that remembers the event-loop threads so close() can wait for them to end;</li>
 *   <li>{@code Accept-Encoding: identity} sent explicitly; trust-all TLS without host name checks when asked.</li>
 * </ul>
 * A closed AsyncHttpClient never reports the requests it still had, so the adapter keeps the set of
 * requests in flight (one concurrent-set add and remove per request) and reports those at close().
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
        this.settings = AhcClients.settings(config, ((DefaultAsyncHttpClient) client).getEventLoopGroup());
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
        AhcExchange handler = new AhcExchange(config, request, completion, inFlight, permits, ramp, observed);
        inFlight.add(handler);
        try {
            client.executeRequest(toAhc(request), handler);
        } catch (RuntimeException e) { // refused before it started, e.g. after close()
            handler.onThrowable(e);
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
        return observed.noDelay.addTo(s);
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
