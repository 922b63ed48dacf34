package clientbench.adapters.ahc;

import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.Http2Ramp;
import clientbench.api.AdapterConfig;
import clientbench.api.Protocol;
import clientbench.api.TimeoutKind;
import clientbench.api.TrustAllCertificates;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.concurrent.MultithreadEventExecutorGroup;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import javax.net.ssl.SSLException;
import org.asynchttpclient.AsyncHttpClientConfig;
import org.asynchttpclient.DefaultAsyncHttpClientConfig;

/**
 * Builds and describes the AsyncHttpClient of the adapter (see {@link AhcAdapter} for why each setting).
 * The HTTP/2 settings avoid what {@code AhcHttp2LibraryBehaviourTest} shows AsyncHttpClient 3.0.13 doing.
 */
final class AhcClients {

    /**
     * Streams in flight on the one HTTP/2 connection: one below the server's 100. AsyncHttpClient frees a
     * stream's slot before Netty closes the stream, so at the server's own limit the next stream is refused
     * by Netty inside the client; one below, Netty's count stays within the limit.
     */
    static final int H2_STREAMS = Http2Ramp.STREAMS - 1;

    /** Long enough for Netty's event loops to close a channel registered during shutdown; 0 lets one leak. */
    static final Duration SHUTDOWN_QUIET_PERIOD = Duration.ofMillis(100);

    private AhcClients() {
    }

    static AsyncHttpClientConfig config(AdapterConfig config, ThreadFactory threads) {
        boolean http2 = AdapterSettings.http2(config);
        // HTTP/2: one connection per host, by design of the client; 1 also keeps a reconnect from opening several.
        int connections = http2 ? 1 : config.maxConnections();
        DefaultAsyncHttpClientConfig.Builder builder = new DefaultAsyncHttpClientConfig.Builder();
        if (AdapterSettings.adapterLimits(config)) {
            builder.setMaxConnections(connections).setMaxConnectionsPerHost(connections);
        }
        if (!config.tuning().libraryRetries()) {
            builder.setMaxRequestRetry(0);
        }
        builder.setHttp2Enabled(http2)
                .setHttp2CleartextEnabled(config.protocol() == Protocol.H2C)
                .setConnectTimeout(config.connectTimeout())
                .setRequestTimeout(config.requestTimeout())
                .setReadTimeout(config.requestTimeout())
                .setCookieStore(null)
                .setEnableAutomaticDecompression(false)
                .setFollowRedirect(false)
                .setResponseBodyPartFactory(AsyncHttpClientConfig.ResponseBodyPartFactory.LAZY)
                .setUseNativeTransport(true)
                .setUseOnlyEpollNativeTransport(true)
                .setUseOpenSsl(false)
                .setShutdownQuietPeriod(SHUTDOWN_QUIET_PERIOD)
                .setShutdownTimeout(Duration.ofSeconds(5))
                .setThreadFactory(threads);
        if (http2) {
            builder.setHttp2MaxConcurrentStreams(H2_STREAMS);
        }
        if (config.ioThreads() > 0) {
            builder.setIoThreadsCount(config.ioThreads());
        }
        if (config.trustAllCertificates() && config.protocol().tls()) {
            builder.setUseInsecureTrustManager(true).setDisableHttpsEndpointIdentificationAlgorithm(true);
        }
        if (config.protocol() == Protocol.H2) {
            builder.setSslContext(h2Only(config));
        }
        return builder.build();
    }

    /** The client's own TLS context for h2 offers h2 and http/1.1 by ALPN; this one, on JSSE, offers h2 alone. */
    private static SslContext h2Only(AdapterConfig config) {
        SslContextBuilder builder = SslContextBuilder.forClient()
                .sslProvider(SslProvider.JDK)
                .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                        ApplicationProtocolNames.HTTP_2));
        if (config.trustAllCertificates()) {
            builder.trustManager(TrustAllCertificates.trustManager());
        }
        try {
            return builder.build();
        } catch (SSLException e) {
            throw new IllegalStateException("cannot create AsyncHttpClient's TLS context for h2: " + e, e);
        }
    }

    /** The settings, with the event loops, transport, connection limits and retries read back from the live client. */
    static Map<String, String> settings(AdapterConfig config, EventLoopGroup group, AsyncHttpClientConfig live) {
        boolean http2 = AdapterSettings.http2(config);
        Map<String, String> s = AdapterSettings.common(config, http2
                        ? "one HTTP/2 connection (maxConnections 1); the adapter lets one request through until the first"
                        + " HTTP/2 response, then " + H2_STREAMS + "; more wait in the adapter's queue"
                        : "maxConnections " + live.getMaxConnections() + ", maxConnectionsPerHost "
                        + live.getMaxConnectionsPerHost() + " (-1: none; read from the live config); no queue: a request"
                        + " finding all busy is rejected at once",
                TimeoutKind.TOTAL, "requestTimeout " + live.getRequestTimeout().toMillis() + " ms (whole exchange; read"
                        + " from the live config), readTimeout " + live.getReadTimeout().toMillis() + " ms");
        s.put("retries", live.getMaxRequestRetry() == 0 ? "off (maxRequestRetry 0)" : "maxRequestRetry "
                + live.getMaxRequestRetry() + " (the default; read from the live config): how many times a request whose"
                + " connection closes under it may be sent again");
        boolean epoll = group instanceof IoEventLoopGroup io && io.isIoType(EpollIoHandler.class);
        s.put("ioThreads", group instanceof MultithreadEventExecutorGroup m ? Integer.toString(m.executorCount()) : "-1");
        s.put("ioThreadsKind", "Netty event loops (executorCount of the client's getEventLoopGroup())");
        s.put("transport", (epoll ? "epoll" : "nio") + " (" + group.getClass().getSimpleName() + ", read from the client)");
        s.put("threading", "Netty event loops, callbacks on them; a hashed-wheel timer thread; request built per call");
        s.put("bodyParts", "LAZY (the handler counts bytes; no copy per chunk)");
        AdapterSettings.http2Connections(s, config, "1");
        if (http2) {
            s.put("h2Streams", "at most " + H2_STREAMS + " (http2MaxConcurrentStreams and the adapter's limit): one below"
                    + " the server's 100, which AsyncHttpClient 3.0.13 overruns before the server's SETTINGS and at the limit;"
                    + " more wait in the adapter's queue, never in the client's own");
        }
        if (config.protocol().tls()) {
            s.put("tlsProvider", "JDK (JSSE), SslProvider.JDK (useOpenSsl false)" + (config.protocol() == Protocol.H2
                    ? "; ALPN offers h2 only (the adapter's SslContext)" : "; no ALPN"));
        }
        return Collections.unmodifiableMap(s);
    }
}
