package clientbench.adapters.reactor;

import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.Http2Ramp;
import clientbench.adapters.support.NoDelayTally;
import clientbench.api.AdapterConfig;
import clientbench.api.Protocol;
import clientbench.api.TimeoutKind;
import clientbench.api.TrustAllCertificates;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.concurrent.MultithreadEventExecutorGroup;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.net.ssl.SSLSession;
import reactor.netty.ChannelPipelineConfigurer;
import reactor.netty.ConnectionObserver;
import reactor.netty.http.Http11SslContextSpec;
import reactor.netty.http.Http2SslContextSpec;
import reactor.netty.http.client.Http2AllocationStrategy;
import reactor.netty.resources.ConnectionProvider;

/**
 * What the Reactor Netty adapter builds and records beside its client: the TLS (the JDK's JSSE engine for
 * every client alike, ALPN offering h2 alone for h2, where {@code Http2SslContextSpec}'s default offers h2
 * and http/1.1, and none for https1) and the settings, read back from the live event loops.
 */
final class ReactorClients {

    private ReactorClients() {
    }

    /**
     * HTTP/1.1: maxConnections, an unbounded pending-acquire queue, waits bounded by requestTimeout on the
     * adapter's loops. HTTP/2: one connection of at most 100 streams, strict reuse (docs/reference/clients.md).
     */
    static ConnectionProvider pool(AdapterConfig config, String name, EventLoopGroup group) {
        ConnectionProvider.Builder pooled = ConnectionProvider.builder(name)
                .pendingAcquireTimer((task, delay) -> {
                    ScheduledFuture<?> f = group.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
                    return () -> f.cancel(false);
                });
        if (!config.tuning().libraryLimits()) { // else the library's: 2 x max(cores, 8), 2 x that pending, 45 s
            pooled.maxConnections(config.maxConnections())
                    .pendingAcquireMaxCount(-1)
                    .pendingAcquireTimeout(config.requestTimeout());
        }
        if (AdapterSettings.http2(config)) {
            pooled.allocationStrategy(Http2AllocationStrategy.builder().maxConnections(1)
                    .maxConcurrentStreams(Http2Ramp.STREAMS).strictConnectionReuse(true).build());
        }
        return pooled.build();
    }

    /** The first connection's channel class and, over TLS, what its handshake agreed on, read from the live channel. */
    static final class Observed implements ChannelPipelineConfigurer {
        volatile String value;
        /** TCP_NODELAY read from each connection's channel as it is initialised (its options set). */
        final NoDelayTally noDelay = new NoDelayTally("as it was initialised, from its Netty channel");

        @Override
        public void onChannelInit(ConnectionObserver observer, Channel channel, SocketAddress remote) {
            if (channel.parent() != null) {
                return; // an HTTP/2 stream
            }
            noDelay.count(() -> channel.config().getOption(ChannelOption.TCP_NODELAY));
            if (value != null) {
                return; // already seen
            }
            SslHandler tls = channel.pipeline().get(SslHandler.class);
            if (tls == null) {
                value = channel.getClass().getSimpleName();
            } else {
                tls.handshakeFuture().addListener(f -> {
                    if (f.isSuccess()) {
                        value = channel.getClass().getSimpleName() + ", " + describe(tls);
                    }
                });
            }
        }
    }

    static reactor.netty.tcp.SslProvider.ProtocolSslContextSpec spec(AdapterConfig config) {
        Consumer<SslContextBuilder> common = b -> {
            b.sslProvider(SslProvider.JDK);
            if (config.trustAllCertificates()) {
                b.trustManager(TrustAllCertificates.trustManager());
            }
        };
        if (config.protocol() != Protocol.H2) {
            return Http11SslContextSpec.forClient().configure(common);
        }
        return Http2SslContextSpec.forClient().configure(common.andThen(b -> b.applicationProtocolConfig(
                new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                        ApplicationProtocolNames.HTTP_2))));
    }

    /** What a finished handshake agreed on, e.g. {@code TLSv1.3 TLS_AES_256_GCM_SHA384, ALPN h2}. */
    static String describe(SslHandler tls) {
        SSLSession session = tls.engine().getSession();
        return session.getProtocol() + " " + session.getCipherSuite() + ", ALPN "
                + (tls.applicationProtocol() == null ? "none" : tls.applicationProtocol())
                + ", engine " + tls.engine().getClass().getName();
    }

    /**
     * The settings, with the event loops, transport and pool size read back from the live group and pool.
     * @param responseTimeout the client's, from its configuration, when it is the request timeout: null when the
     *        adapter's Mono.timeout is
     * @param retryDisabled the client's, from its configuration
     */
    static Map<String, String> settings(AdapterConfig config, EventLoopGroup colocated, ConnectionProvider pool,
                                        Duration responseTimeout, boolean retryDisabled) {
        boolean http2 = AdapterSettings.http2(config);
        Map<String, String> s = AdapterSettings.common(config, http2
                        ? "one HTTP/2 connection (Http2AllocationStrategy maxConnections 1); more requests wait for a stream"
                        + " in its unbounded pending-acquire queue, at most requestTimeout"
                        : config.tuning().libraryLimits()
                        ? "ConnectionProvider maxConnections " + pool.maxConnections() + " (the library's, read from the live"
                        + " pool); more wait in its pending-acquire queue, which rejects past 2 x maxConnections, 45 s each"
                        : "ConnectionProvider maxConnections " + pool.maxConnections() + "; more wait in its unbounded"
                        + " pending-acquire queue, at most requestTimeout",
                responseTimeout != null ? TimeoutKind.PER_READ : TimeoutKind.SUITE,
                (responseTimeout != null ? "responseTimeout " + responseTimeout.toMillis() + " ms (read from"
                        + " the live client's configuration): a read-timeout handler from the request's end to the"
                        + " response's, each read resets it"
                        : "Mono.timeout over the whole exchange (acquire, connect, response, body); no responseTimeout"));
        s.put("retries", retryDisabled ? "off (disableRetry true, read from the live client)" : "the library's default"
                + " (disableRetry false, read from the live client): a request whose pooled connection closes before it is"
                + " sent is sent once more on another");
        EventLoopGroup group = colocated instanceof Supplier<?> inner ? (EventLoopGroup) inner.get() : colocated;
        boolean epoll = group instanceof IoEventLoopGroup io && io.isIoType(EpollIoHandler.class);
        s.put("ioThreads", group instanceof MultithreadEventExecutorGroup m ? Integer.toString(m.executorCount()) : "-1");
        s.put("ioThreadsKind", "Netty event loops (executorCount of the LoopResources' client group)");
        s.put("transport", (epoll ? "epoll" : "nio") + " (" + group.getClass().getSimpleName() + ", read from the client's loops)");
        s.put("threading", "the adapter's own Netty event loops, callbacks on them; request preparation per call");
        AdapterSettings.http2Connections(s, config, "1");
        if (http2) {
            s.put("h2Streams", "at most " + Http2Ramp.STREAMS + " (Http2AllocationStrategy maxConcurrentStreams, from the"
                    + " first stream on; the server's SETTINGS_MAX_CONCURRENT_STREAMS if lower); more wait in the pool's queue");
        }
        if (config.protocol().tls()) {
            s.put("tlsProvider", "JDK (JSSE), SslProvider.JDK" + (config.protocol() == Protocol.H2 ? "; ALPN offers h2 only" : "; no ALPN"));
        }
        return Collections.unmodifiableMap(s);
    }
}
