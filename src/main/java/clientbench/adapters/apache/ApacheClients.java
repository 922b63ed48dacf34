package clientbench.adapters.apache;

import clientbench.adapters.support.AdapterSettings;
import clientbench.api.AdapterConfig;
import clientbench.api.LibraryVersion;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.TimeoutKind;
import clientbench.api.TrustAllCertificates;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.config.TlsConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.core5.pool.ConnPoolControl;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.client5.http.ssl.NoopHostnameVerifier;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.http.nio.ssl.TlsStrategy;
import org.apache.hc.core5.http2.HttpVersionPolicy;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.net.NamedEndpoint;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.reactor.ssl.TransportSecurityLayer;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * The Apache clients both Apache adapters use (settings: docs/reference/clients.md): the async client
 * ({@code HttpAsyncClients.custom()} over a pooling manager for HTTP/1.1, {@code customHttp2()} for HTTP/2),
 * the classic one, their shared pool and TLS setup, and how their failures and settings read.
 */
public final class ApacheClients {

    private ApacheClients() {
    }

    /**
     * The async client, not yet started. On HTTP/2, Apache's HTTP/2-only client: one connection per route, exchanges
     * beyond SETTINGS_MAX_CONCURRENT_STREAMS queued in the client; the HTTP/1.1 pooling manager would lease a
     * connection per exchange and open one connection per concurrent request.
     */
    public static CloseableHttpAsyncClient newAsyncClient(AdapterConfig config, ThreadFactory reactorThreads,
                                                   PoolingAsyncClientConnectionManager pool) {
        IOReactorConfig reactor = reactorConfig(config);
        if (AdapterSettings.http2(config)) {
            var h2 = HttpAsyncClients.customHttp2()
                    .setTlsStrategy(new Http2Only(asyncTls(config)))
                    .setDefaultConnectionConfig(connectionConfig(config))
                    .setIOReactorConfig(reactor)
                    .setThreadFactory(reactorThreads)
                    .setDefaultRequestConfig(requestConfig(config))
                    .disableRedirectHandling()
                    .disableCookieManagement();
            return (config.tuning().libraryRetries() ? h2 : h2.disableAutomaticRetries()).build();
        }
        var http1 = HttpAsyncClients.custom()
                .setConnectionManager(pool)
                .setIOReactorConfig(reactor)
                .setThreadFactory(reactorThreads)
                .setDefaultRequestConfig(requestConfig(config))
                .disableRedirectHandling()
                .disableCookieManagement()
                .disableContentCompression();
        return (config.tuning().libraryRetries() ? http1 : http1.disableAutomaticRetries()).build();
    }

    /** The async client's HTTP/1.1 pool: the suite's limit on total and per route, or the library's own (25, 5). */
    public static PoolingAsyncClientConnectionManager asyncPool(AdapterConfig config) {
        PoolingAsyncClientConnectionManagerBuilder pool = PoolingAsyncClientConnectionManagerBuilder.create()
                .setDefaultConnectionConfig(connectionConfig(config))
                .setDefaultTlsConfig(TlsConfig.custom().setVersionPolicy(HttpVersionPolicy.FORCE_HTTP_1).build());
        if (!config.tuning().libraryLimits()) {
            pool.setMaxConnTotal(config.maxConnections()).setMaxConnPerRoute(config.maxConnections());
        }
        if (config.protocol().tls()) {
            pool.setTlsStrategy(asyncTls(config));
        }
        return pool.build();
    }

    /**
     * With the library's own timeout, responseTimeout = the request timeout: the socket's inactivity timeout while the
     * exchange waits for the response, reset by every read ({@link TimeoutKind#PER_READ}). Else null: the builders'
     * own default, as every benchmark runs.
     */
    static RequestConfig requestConfig(AdapterConfig config) {
        return config.tuning().libraryTimeout()
                ? RequestConfig.custom().setResponseTimeout(Timeout.of(config.requestTimeout())).build()
                : null;
    }

    private static ConnectionConfig connectionConfig(AdapterConfig config) {
        return ConnectionConfig.custom().setConnectTimeout(Timeout.of(config.connectTimeout())).build();
    }

    /** The pool's limits as the live pool reports them. */
    public static String poolLimits(ConnPoolControl<?> pool) {
        return "pool max total " + pool.getMaxTotal() + ", max per route " + pool.getDefaultMaxPerRoute()
                + " (read from the live pool); more wait for a lease";
    }

    /** The I/O reactor's configuration: the client's defaults (TCP_NODELAY on among them), I/O threads if given. */
    public static IOReactorConfig reactorConfig(AdapterConfig config) {
        IOReactorConfig.Builder reactor = IOReactorConfig.custom();
        if (config.ioThreads() > 0) {
            reactor.setIoThreadCount(config.ioThreads());
        }
        return reactor.build();
    }

    public static CloseableHttpClient newClassicClient(AdapterConfig config, PoolingHttpClientConnectionManager pool) {
        var b = HttpClients.custom()
                .setConnectionManager(pool)
                .setDefaultRequestConfig(requestConfig(config))
                .disableRedirectHandling()
                .disableCookieManagement()
                .disableContentCompression();
        return (config.tuning().libraryRetries() ? b : b.disableAutomaticRetries()).build();
    }

    /** The classic client's pool: the suite's limit on total and per route, or the library's own (25, 5). */
    public static PoolingHttpClientConnectionManager classicPool(AdapterConfig config) {
        PoolingHttpClientConnectionManagerBuilder pool = PoolingHttpClientConnectionManagerBuilder.create()
                .setDefaultConnectionConfig(connectionConfig(config));
        if (!config.tuning().libraryLimits()) {
            pool.setMaxConnTotal(config.maxConnections()).setMaxConnPerRoute(config.maxConnections());
        }
        if (config.protocol().tls()) {
            pool.setTlsSocketStrategy(tls(config).buildClassic());
        }
        return pool.build();
    }

    private static TlsStrategy asyncTls(AdapterConfig config) {
        return tls(config).buildAsync();
    }

    private static ClientTlsStrategyBuilder tls(AdapterConfig config) {
        ClientTlsStrategyBuilder b = ClientTlsStrategyBuilder.create();
        if (config.trustAllCertificates()) {
            b.setSslContext(TrustAllCertificates.sslContext()).setHostnameVerifier(NoopHostnameVerifier.INSTANCE);
        }
        return b;
    }

    /**
     * Offers h2 alone by ALPN: the HTTP/2 client's pool hands the TLS strategy no {@code TlsConfig}, and the
     * strategy's default then offers h2 and http/1.1, though this client speaks nothing but HTTP/2.
     */
    private record Http2Only(TlsStrategy tls) implements TlsStrategy {
        private static final TlsConfig FORCE_HTTP_2 = TlsConfig.custom().setVersionPolicy(HttpVersionPolicy.FORCE_HTTP_2).build();

        @Override
        public void upgrade(TransportSecurityLayer session, NamedEndpoint endpoint, Object attachment, Timeout handshakeTimeout,
                            FutureCallback<TransportSecurityLayer> callback) {
            tls.upgrade(session, endpoint, FORCE_HTTP_2, handshakeTimeout, callback);
        }

        @Override
        @Deprecated
        public boolean upgrade(TransportSecurityLayer session, HttpHost host, SocketAddress localAddress,
                               SocketAddress remoteAddress, Object attachment, Timeout handshakeTimeout) {
            return tls.upgrade(session, host, localAddress, remoteAddress, FORCE_HTTP_2, handshakeTimeout);
        }
    }

    /**
     * Names and counts the async client's threads. The builder hands this factory to the I/O reactor, which
     * makes its worker threads when the client is built, and to the client's one "main" thread, made only
     * when the client starts: so the threads made by the end of {@code build()} are the reactor's.
     */
    public static final class ReactorThreads implements ThreadFactory {
        private final String adapterName;
        private final AtomicInteger next = new AtomicInteger();
        private volatile int reactorCount = -1;

        public ReactorThreads(String adapterName) {
            this.adapterName = adapterName;
        }

        @Override
        public Thread newThread(Runnable r) {
            String role = reactorCount < 0 ? "-io-" : "-main-";
            return Thread.ofPlatform().name(adapterName + role + next.getAndIncrement()).daemon().unstarted(r);
        }

        /** Call once, after {@code build()} and before {@code start()}. */
        public void built() {
            reactorCount = next.get();
        }

        /**
         * The reactor's worker threads, as the client made them. Not "alive now": the client starts them on its
         * main thread a moment after {@code start()} returns.
         */
        public int reactorThreads() {
            return Math.max(0, reactorCount);
        }
    }

    /**
     * Closes the async client and waits (bounded) for its reactor. GRACEFUL: the reactor closes its own channels;
     * IMMEDIATE closes the selector under it and the reactor thread logs a ClosedSelectorException at ERROR.
     */
    public static void close(CloseableHttpAsyncClient client) {
        client.close(CloseMode.GRACEFUL);
        try {
            client.awaitShutdown(TimeValue.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        client.close(CloseMode.IMMEDIATE); // no-op once shut down; ends a reactor that outlived the wait
    }

    /** Apache reports a connect timeout as a {@code SocketTimeoutException} subclass: a connect failure. */
    public static Outcome outcomeOf(Throwable failure) {
        return Outcomes.cause(failure, ConnectTimeoutException.class) != null ? Outcome.CONNECT : Outcomes.ofThrowable(failure);
    }

    public static Map<String, String> settings(AdapterConfig config, String connectionLimit, String threading) {
        Map<String, String> s = config.tuning().libraryTimeout()
                ? AdapterSettings.common(config, connectionLimit, TimeoutKind.PER_READ, "RequestConfig.responseTimeout "
                + requestConfig(config).getResponseTimeout() + " (the default request config the client was built with;"
                + " no getter on the client): inactivity while waiting for the response, each read resets it")
                : AdapterSettings.common(config, connectionLimit, TimeoutKind.SUITE,
                "adapter deadline cancels the exchange (the client has no whole-exchange timeout)");
        AdapterSettings.http2OneConnection(s, config, "Apache's HTTP/2 client keeps one connection per route;"
                + " streams beyond the server's SETTINGS_MAX_CONCURRENT_STREAMS wait in the client's command queue of"
                + " that connection, requests that arrive while it connects wait for it");
        s.put("retries", config.tuning().libraryRetries()
                ? "the library's default, DefaultHttpRequestRetryStrategy: an idempotent request once more after an I/O"
                + " error such as NoHttpResponseException; a 429 or 503 once more after Retry-After, else 1 s"
                : "off (disableAutomaticRetries; nothing else resends a sent request)");
        s.put("threading", threading);
        return s;
    }

    /** The async client's settings: its limit, TCP_NODELAY and the I/O reactor threads it made. */
    public static Map<String, String> asyncSettings(AdapterConfig config, String connectionLimit, ReactorThreads reactorThreads,
                                                    String threading) {
        Map<String, String> s = settings(config, connectionLimit, threading);
        AdapterSettings.tcpNoDelay(s, reactorConfig(config).isTcpNoDelay(),
                "IOReactorConfig.isTcpNoDelay() of the configuration the client was built with");
        AdapterSettings.ioThreads(s, reactorThreads.reactorThreads(), "I/O reactor threads, counted as the client's"
                + " thread factory made them (the client has no getter)");
        return s;
    }

    /** The classic client's settings on virtual threads: its pool's limits, TCP_NODELAY and no I/O threads of its own. */
    public static Map<String, String> classicSettings(AdapterConfig config, PoolingHttpClientConnectionManager pool,
                                                      String threading) {
        Map<String, String> s = settings(config, poolLimits(pool), threading);
        AdapterSettings.tcpNoDelay(s, SocketConfig.DEFAULT.isTcpNoDelay(),
                "SocketConfig.DEFAULT.isTcpNoDelay(), the socket configuration of the client's connection manager");
        AdapterSettings.ioThreads(s, 0, "none: blocking I/O on each request's virtual thread");
        return s;
    }

    public static String libraryVersion() {
        return LibraryVersion.of(CloseableHttpAsyncClient.class, "org.apache.httpcomponents.client5", "httpclient5");
    }
}
