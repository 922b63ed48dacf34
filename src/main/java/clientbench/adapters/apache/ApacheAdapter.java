package clientbench.adapters.apache;

import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.LibraryVersion;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import clientbench.api.TrustAllCertificates;
import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.DeadlineTimer;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.TlsConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.client5.http.ssl.NoopHostnameVerifier;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.nio.support.AsyncRequestBuilder;
import org.apache.hc.core5.http2.HttpVersionPolicy;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * Apache HttpClient 5, asynchronous ({@code HttpAsyncClients.custom()}).
 * Docs: https://hc.apache.org/httpcomponents-client-5.6.x/
 *
 * <p>Settings that differ from the client's defaults:
 * <ul>
 *   <li>{@code PoolingAsyncClientConnectionManager} max total and max per route = maxConnections
 *       (default 25 and 5); requests beyond wait for a lease in the pool;</li>
 *   <li>version policy {@code FORCE_HTTP_1} for http1 and https1 (default {@code NEGOTIATE}: ALPN h2 over
 *       TLS); {@code FORCE_HTTP_2} for h2c (prior knowledge) and h2 (ALPN offers h2 alone). On HTTP/2 the
 *       pool still holds up to maxConnections connections, but every exchange shares a leased connection;</li>
 *   <li>connect timeout from the config (default 3 min);</li>
 *   <li>request timeout: the client has no whole-exchange timeout (only connect, pool lease and socket
 *       inactivity, each 3 min by default), so a {@link DeadlineTimer} cancels the exchange's future
 *       when the request timeout passes, which is reported as {@code TIMEOUT};</li>
 *   <li>redirects, cookies, automatic retries and content compression disabled (all on by default);</li>
 *   <li>I/O reactor threads = ioThreads when set (default one per core);</li>
 *   <li>{@code Accept-Encoding: identity} sent explicitly; trust-all TLS with {@code NoopHostnameVerifier} when asked.</li>
 * </ul>
 * A closed async client never reports the exchanges it still had, so the adapter keeps the set of
 * exchanges in flight (one concurrent-set add and remove per request) and reports those at close().
 */
public final class ApacheAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final CloseableHttpAsyncClient client;
    private final DeadlineTimer deadlines;
    private final Set<ApacheExchange> inFlight = ConcurrentHashMap.newKeySet();
    private final Map<String, String> settings;
    private volatile boolean closed;

    public ApacheAdapter(AdapterConfig config) {
        this.config = config;
        boolean http2 = AdapterSettings.http2(config);
        Map<String, String> s = AdapterSettings.common(config, http2
                        ? "pool max total = max per route = maxConnections connections, each shared by many streams"
                        : "pool max total = max per route = maxConnections; more wait for a lease",
                "adapter deadline cancels the exchange (the client has no whole-exchange timeout)");
        AdapterSettings.http2Connections(s, config, "a pool of up to maxConnections connections, each shared by"
                + " concurrent streams: a lease that finds no connection yet opens one, so concurrent first requests"
                + " open up to maxConnections, which then stay open, each carrying streams");
        s.put("threading", "I/O reactor threads; callbacks on them; one deadline thread of the adapter");
        this.settings = Collections.unmodifiableMap(s);
        PoolingAsyncClientConnectionManagerBuilder pool = PoolingAsyncClientConnectionManagerBuilder.create()
                .setMaxConnTotal(config.maxConnections())
                .setMaxConnPerRoute(config.maxConnections())
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(config.connectTimeout())).build())
                .setDefaultTlsConfig(TlsConfig.custom()
                        .setVersionPolicy(http2 ? HttpVersionPolicy.FORCE_HTTP_2 : HttpVersionPolicy.FORCE_HTTP_1).build());
        if (config.trustAllCertificates() && config.protocol().tls()) {
            pool.setTlsStrategy(ClientTlsStrategyBuilder.create().setSslContext(TrustAllCertificates.sslContext())
                    .setHostnameVerifier(NoopHostnameVerifier.INSTANCE).buildAsync());
        }
        IOReactorConfig.Builder reactor = IOReactorConfig.custom();
        if (config.ioThreads() > 0) {
            reactor.setIoThreadCount(config.ioThreads());
        }
        this.client = HttpAsyncClients.custom()
                .setConnectionManager(pool.build())
                .setIOReactorConfig(reactor.build())
                .disableRedirectHandling()
                .disableCookieManagement()
                .disableAutomaticRetries()
                .disableContentCompression()
                .build();
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
        // GRACEFUL: the reactor closes its own channels. IMMEDIATE closes the selector under it and the
        // reactor thread logs a ClosedSelectorException at ERROR on every close.
        client.close(CloseMode.GRACEFUL);
        try {
            client.awaitShutdown(TimeValue.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        client.close(CloseMode.IMMEDIATE); // no-op once shut down; ends a reactor that outlived the wait
        inFlight.forEach(ApacheExchange::abandon);
        deadlines.close();
    }

    @Override
    public String libraryVersion() {
        return LibraryVersion.of(CloseableHttpAsyncClient.class, "org.apache.httpcomponents.client5", "httpclient5");
    }

    @Override
    public Map<String, String> settings() {
        return settings;
    }

    @Override
    public String name() {
        return "apache";
    }

    /** Apache reports a connect timeout as a {@code SocketTimeoutException} subclass: a connect failure. */
    static Outcome outcomeOf(Exception e) {
        return e instanceof ConnectTimeoutException ? Outcome.CONNECT : Outcomes.ofThrowable(e);
    }
}
