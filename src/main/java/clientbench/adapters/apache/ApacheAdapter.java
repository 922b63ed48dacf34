package clientbench.adapters.apache;

import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.DeadlineTimer;
import clientbench.adapters.support.OpenBodies;
import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Request;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.nio.support.AsyncRequestBuilder;

/**
 * Apache HttpClient 5, async, built by {@link ApacheClients}. Docs: https://hc.apache.org/httpcomponents-client-5.6.x/
 * Off its defaults: pool = maxConnections (or its own); FORCE_HTTP_1, or the HTTP/2 client on one connection; no redirects, cookies,
 * retries, compression; a {@link DeadlineTimer} for the whole-exchange timeout it lacks (with the library's own timeout,
 * its responseTimeout instead); close() resets what is left.
 */
public final class ApacheAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final ApacheClients.ReactorThreads reactorThreads;
    private final CloseableHttpAsyncClient client;
    /** The HTTP/1.1 pool, for its live limits (null on HTTP/2: one connection per route). */
    private final PoolingAsyncClientConnectionManager pool;
    /** Null with the library's own timeout. */
    private final DeadlineTimer deadlines;
    private final Set<ApacheExchange> inFlight = ConcurrentHashMap.newKeySet();
    private final OpenBodies leftOpen = new OpenBodies();
    private volatile boolean closed;

    public ApacheAdapter(AdapterConfig config) {
        this.config = config;
        this.reactorThreads = new ApacheClients.ReactorThreads(name());
        this.pool = AdapterSettings.http2(config) ? null : ApacheClients.asyncPool(config);
        this.client = ApacheClients.newAsyncClient(config, reactorThreads, pool);
        reactorThreads.built();
        this.deadlines = config.tuning().libraryTimeout() ? null : new DeadlineTimer(name() + "-deadline");
        client.start();
    }

    @Override
    public void send(Request request, Completion completion) {
        if (closed) {
            completion.complete(Outcome.REJECTED, 0, new RejectedExecutionException(name() + " is closed"));
            return;
        }
        AsyncRequestBuilder b = AsyncRequestBuilder.create(request.method()).setUri(request.uri());
        request.headers().forEach(h -> b.addHeader(h.name(), h.value()));
        if (request.hasBody()) {
            b.setEntity(request.body(), ContentType.parse(request.contentType()));
        }
        ApacheExchange exchange = new ApacheExchange(request, completion, inFlight);
        inFlight.add(exchange);
        if (request.leavesBodyOpen()) {
            leftOpen.hold(exchange, ApacheExchange::closeLeftOpen);
        }
        try {
            Future<Long> future = client.execute(b.build(), exchange.consumer, exchange);
            exchange.startDeadline(future, deadlines, config.requestTimeout());
        } catch (RuntimeException e) { // refused before it started, e.g. after close()
            exchange.failed(e);
        }
    }

    @Override
    public void close() {
        closed = true;
        inFlight.forEach(ApacheExchange::abandon); // a graceful close would let them run to their end
        leftOpen.closeAll();
        ApacheClients.close(client);
        inFlight.forEach(ApacheExchange::abandon); // sent while closing
        if (deadlines != null) {
            deadlines.close();
        }
    }

    @Override
    public String libraryVersion() {
        return ApacheClients.libraryVersion();
    }

    @Override
    public Map<String, String> settings() {
        return Collections.unmodifiableMap(ApacheClients.asyncSettings(config, AdapterSettings.http2(config)
                        ? "one HTTP/2 connection (maxConnections does not apply); streams as the server allows"
                        : ApacheClients.poolLimits(pool), reactorThreads,
                "I/O reactor threads; callbacks on them" + (deadlines == null ? "" : "; one deadline thread of the adapter")));
    }

    @Override
    public String name() {
        return "apache";
    }
}
