package clientbench.adapters.apache;

import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.DeadlineTimer;
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
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.nio.support.AsyncRequestBuilder;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;

/**
 * Apache HttpClient 5, asynchronous. Docs: https://hc.apache.org/httpcomponents-client-5.6.x/
 *
 * <p>Settings that differ from the client's defaults (built by {@link ApacheClients}):
 * <ul>
 *   <li>HTTP/1.1 ({@code HttpAsyncClients.custom()}): {@code PoolingAsyncClientConnectionManager} max total
 *       and max per route = maxConnections (default 25 and 5), more wait for a lease; version policy
 *       {@code FORCE_HTTP_1} (default {@code NEGOTIATE}: ALPN h2 over TLS);</li>
 *   <li>HTTP/2 ({@code HttpAsyncClients.customHttp2()}, Apache's documented HTTP/2 client): one connection,
 *       h2c by prior knowledge, h2 with ALPN offering h2 alone; streams beyond the server's
 *       SETTINGS_MAX_CONCURRENT_STREAMS wait in the client. The pooling manager would lease a connection per
 *       exchange and so open up to maxConnections connections of one stream each;</li>
 *   <li>connect timeout from the config (default 3 min);</li>
 *   <li>request timeout: the client has no whole-exchange timeout (only connect, pool lease and socket
 *       inactivity, each 3 min by default), so a {@link DeadlineTimer} cancels the exchange's future
 *       when the request timeout passes, which is reported as {@code TIMEOUT};</li>
 *   <li>redirects, cookies, automatic retries and content compression disabled (all on by default);</li>
 *   <li>I/O reactor threads = ioThreads when set (default one per core), counted as the client makes them;</li>
 *   <li>{@code Accept-Encoding: identity} sent explicitly; trust-all TLS with {@code NoopHostnameVerifier} when asked.</li>
 * </ul>
 * A closed async client never reports the exchanges it still had, and a graceful close lets them run to
 * their end, so the adapter keeps the set of exchanges in flight (one concurrent-set add and remove per
 * request) and at close() reports each as {@code RESET} and cancels it.
 */
public final class ApacheAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final ApacheClients.ReactorThreads reactorThreads;
    private final CloseableHttpAsyncClient client;
    private final DeadlineTimer deadlines;
    private final Set<ApacheExchange> inFlight = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    public ApacheAdapter(AdapterConfig config) {
        this.config = config;
        this.reactorThreads = new ApacheClients.ReactorThreads(name());
        this.client = ApacheClients.newAsyncClient(config, reactorThreads);
        reactorThreads.built();
        this.deadlines = new DeadlineTimer(name() + "-deadline");
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
        try {
            Future<Long> future = client.execute(b.build(), exchange.counter, exchange);
            exchange.startDeadline(future, deadlines, config.requestTimeout());
        } catch (RuntimeException e) { // refused before it started, e.g. after close()
            exchange.failed(e);
        }
    }

    @Override
    public void close() {
        closed = true;
        inFlight.forEach(ApacheExchange::abandon); // a graceful close would let them run to their end
        // GRACEFUL: the reactor closes its own channels. IMMEDIATE closes the selector under it and the
        // reactor thread logs a ClosedSelectorException at ERROR on every close.
        client.close(CloseMode.GRACEFUL);
        try {
            client.awaitShutdown(TimeValue.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        client.close(CloseMode.IMMEDIATE); // no-op once shut down; ends a reactor that outlived the wait
        inFlight.forEach(ApacheExchange::abandon); // sent while closing
        deadlines.close();
    }

    @Override
    public String libraryVersion() {
        return ApacheClients.libraryVersion();
    }

    @Override
    public Map<String, String> settings() {
        Map<String, String> s = ApacheClients.settings(config, AdapterSettings.http2(config)
                        ? "one HTTP/2 connection (maxConnections does not apply); streams as the server allows"
                        : "pool max total = max per route = maxConnections; more wait for a lease",
                "I/O reactor threads; callbacks on them; one deadline thread of the adapter");
        AdapterSettings.tcpNoDelay(s, ApacheClients.reactorConfig(config).isTcpNoDelay(),
                "IOReactorConfig.isTcpNoDelay() of the configuration the client was built with");
        AdapterSettings.ioThreads(s, reactorThreads.reactorThreads(), "I/O reactor threads, counted as the client's"
                + " thread factory made them (the client has no getter)");
        return Collections.unmodifiableMap(s);
    }

    @Override
    public String name() {
        return "apache";
    }
}
