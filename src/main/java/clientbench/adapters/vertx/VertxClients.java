package clientbench.adapters.vertx;

import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.Http2Ramp;
import clientbench.adapters.support.NoDelayTally;
import clientbench.api.AdapterConfig;
import clientbench.api.Protocol;
import clientbench.api.TimeoutKind;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.util.concurrent.MultithreadEventExecutorGroup;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.impl.ConnectionBase;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLSession;

/**
 * The Vert.x instance of one adapter, its event-loop contexts ("lanes", one per verticle instance) and one
 * HTTP client per lane, kept in the lane's context data, plus what the adapter's settings record.
 */
final class VertxClients {

    /** The context-data key under which a lane keeps its client. */
    static final String CLIENT = "clientbench.vertx.client";

    private final Vertx vertx;
    private final List<Context> contexts;
    private final Map<String, String> settings;
    private final Observed observed;

    private VertxClients(Vertx vertx, List<Context> contexts, Map<String, String> settings, Observed observed) {
        this.vertx = vertx;
        this.contexts = contexts;
        this.settings = settings;
        this.observed = observed;
    }

    /** Starts Vert.x, deploys the lanes and builds their clients; on failure closes what it started. */
    static VertxClients start(AdapterConfig config) {
        VertxOptions options = new VertxOptions()
                .setPreferNativeTransport(true)
                .setFileSystemOptions(new FileSystemOptions().setClassPathResolvingEnabled(false).setFileCachingEnabled(false));
        if (config.ioThreads() > 0) {
            options.setEventLoopPoolSize(config.ioThreads());
        }
        Vertx vertx = Vertx.vertx(options);
        try {
            EventLoopGroup loops = ((VertxInternal) vertx).nettyEventLoopGroup();
            int loopCount = loops instanceof MultithreadEventExecutorGroup m ? m.executorCount() : 1;
            boolean http2 = AdapterSettings.http2(config);
            // HTTP/2: one connection, so one lane; HTTP/1.1: a lane per loop, each with a share of the connections; with
            // the library's own limits, one client, as a team builds it, with its default pool.
            boolean own = AdapterSettings.adapterLimits(config);
            int laneCount = http2 || !own ? 1 : Math.min(loopCount, config.maxConnections());
            List<Context> contexts = new CopyOnWriteArrayList<>();
            vertx.deployVerticle(() -> context -> {
                contexts.add(context);
                return Future.succeededFuture();
            }, new DeploymentOptions().setInstances(laneCount)).await(Duration.ofSeconds(10));
            Observed observed = new Observed();
            for (int i = 0; i < laneCount; i++) {
                int share = config.maxConnections() / laneCount + (i < config.maxConnections() % laneCount ? 1 : 0);
                HttpClientAgent client = vertx.httpClientBuilder()
                        .with(http(config))
                        .with(own ? new PoolOptions().setHttp1MaxSize(share).setHttp2MaxSize(1) : new PoolOptions())
                        .withConnectHandler(observed::connected)
                        .build();
                contexts.get(i).put(CLIENT, client);
            }
            return new VertxClients(vertx, List.copyOf(contexts), describe(config, vertx, loops, laneCount), observed);
        } catch (RuntimeException | TimeoutException e) {
            vertx.close();
            throw e instanceof RuntimeException r ? r : new IllegalStateException("Vert.x did not deploy its lanes", e);
        }
    }

    static HttpClientAgent client(Context lane) {
        return lane.get(CLIENT);
    }

    Vertx vertx() {
        return vertx;
    }

    List<Context> contexts() {
        return contexts;
    }

    /** The settings, with TCP_NODELAY as read from the connections so far. */
    Map<String, String> settings() {
        return observed.noDelay.addTo(settings);
    }

    /** What the first connection negotiated, or null before one is up. */
    String observed() {
        return observed.value;
    }

    private static HttpClientOptions http(AdapterConfig config) {
        HttpClientOptions http = new HttpClientOptions()
                .setKeepAlive(true)
                .setDecompressionSupported(false)
                .setConnectTimeout((int) config.connectTimeout().toMillis());
        switch (config.protocol()) {
            case HTTP1, HTTPS1 -> http.setProtocolVersion(HttpVersion.HTTP_1_1).setUseAlpn(false);
            case H2C -> http.setProtocolVersion(HttpVersion.HTTP_2).setHttp2ClearTextUpgrade(false);
            case H2 -> http.setProtocolVersion(HttpVersion.HTTP_2).setUseAlpn(true).setAlpnVersions(List.of(HttpVersion.HTTP_2));
        }
        if (AdapterSettings.http2(config)) {
            http.setHttp2MultiplexingLimit(Http2Ramp.STREAMS);
        }
        if (config.protocol().tls()) {
            http.setSsl(true).setSslEngineOptions(new JdkSSLEngineOptions());
            if (config.trustAllCertificates()) {
                http.setTrustAll(true).setVerifyHost(false);
            }
        }
        return http;
    }

    private static Map<String, String> describe(AdapterConfig config, Vertx vertx, EventLoopGroup loops, int laneCount) {
        boolean http2 = AdapterSettings.http2(config);
        Map<String, String> s = AdapterSettings.common(config, http2
                        ? "one HTTP/2 connection (http2MaxSize 1); more requests wait for a stream in the pool's unbounded"
                        + " wait queue, at most requestTimeout"
                        : !AdapterSettings.adapterLimits(config) ? "the library's PoolOptions: http1MaxSize "
                        + new PoolOptions().getHttp1MaxSize() + " per server, one client; more wait in the pool's wait"
                        + " queue (maxWaitQueueSize " + new PoolOptions().getMaxWaitQueueSize() + "), at most requestTimeout"
                        : "pool http1MaxSize, maxConnections split over " + laneCount + " client(s), one per event loop;"
                        + " more wait in the pool's unbounded wait queue, at most requestTimeout",
                // The request's idle timeout is cancelled when the response head arrives (HttpClientRequestBase's
                // handleResponse), so a stalled or trickled body never ends it: up to the headers.
                config.tuning().libraryTimeout() ? TimeoutKind.HEADERS : TimeoutKind.SUITE,
                (config.tuning().libraryTimeout() ? "RequestOptions.idleTimeout = requestTimeout alone"
                        : "a timer resets the request after requestTimeout (whole exchange); RequestOptions.idleTimeout the"
                        + " same") + ", set on every request: idle until the response head, then cancelled");
        s.put("retries", "none: the Vert.x HTTP client does not send a request again (nothing to turn off)");
        int loopCount = loops instanceof MultithreadEventExecutorGroup m ? m.executorCount() : -1;
        boolean epoll = loops instanceof IoEventLoopGroup io && io.isIoType(EpollIoHandler.class);
        s.put("ioThreads", Integer.toString(loopCount));
        s.put("ioThreadsKind", "Vert.x event loops (executorCount of the live Vertx's Netty group)");
        s.put("transport", (epoll ? "epoll" : "nio") + " (isNativeTransportEnabled " + vertx.isNativeTransportEnabled()
                + ", read from the live Vertx)");
        s.put("threading", "the adapter's own Vertx event loops; " + laneCount + " lane(s): verticle contexts, one client"
                + " each, requests run on them in turn (runOnContext), callbacks on the same loop; request options per call");
        AdapterSettings.http2Connections(s, config, "1");
        if (http2) {
            s.put("h2Streams", "at most " + Http2Ramp.STREAMS + " (http2MultiplexingLimit; the server's"
                    + " SETTINGS_MAX_CONCURRENT_STREAMS if lower); more wait in the pool's wait queue");
        }
        if (config.protocol().tls()) {
            s.put("tlsProvider", "JDK (JSSE), JdkSSLEngineOptions" + (config.protocol() == Protocol.H2
                    ? "; ALPN offers h2 only" : "; no ALPN"));
        }
        return Collections.unmodifiableMap(s);
    }

    /** The first connection's protocol and, over TLS, what its handshake agreed on. */
    private static final class Observed {
        volatile String value;
        /** TCP_NODELAY read from each connection's Netty channel as it connected (Vert.x's ConnectionBase, internal). */
        final NoDelayTally noDelay = new NoDelayTally("as it connected, from its Netty channel");

        void connected(HttpConnection connection) {
            noDelay.count(() -> connection instanceof ConnectionBase base
                    ? base.channel().config().getOption(ChannelOption.TCP_NODELAY) : null);
            if (value != null) {
                return;
            }
            SSLSession tls = connection.sslSession();
            value = connection.protocolVersion() + (tls == null ? "" : ", " + tls.getProtocol() + " " + tls.getCipherSuite()
                    + ", session " + tls.getClass().getName());
        }
    }
}
