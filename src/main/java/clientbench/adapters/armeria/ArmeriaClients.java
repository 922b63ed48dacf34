package clientbench.adapters.armeria;

import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.Http2Ramp;
import clientbench.adapters.support.NoDelayTally;
import clientbench.adapters.support.OpenChannels;
import clientbench.api.AdapterConfig;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.TimeoutKind;
import com.linecorp.armeria.client.ClientFactory;
import com.linecorp.armeria.client.ClientFactoryBuilder;
import com.linecorp.armeria.client.ClientFactoryOptions;
import com.linecorp.armeria.client.ConnectionPoolListenerAdapter;
import com.linecorp.armeria.client.Endpoint;
import com.linecorp.armeria.client.ResponseTimeoutMode;
import com.linecorp.armeria.client.WebClient;
import com.linecorp.armeria.common.Flags;
import com.linecorp.armeria.common.SessionProtocol;
import com.linecorp.armeria.common.stream.ClosedStreamException;
import com.linecorp.armeria.common.util.EventLoopGroups;
import com.linecorp.armeria.common.util.TlsEngineType;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.util.AttributeMap;
import io.netty.util.concurrent.MultithreadEventExecutorGroup;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Map;

/**
 * What the Armeria adapter builds and records beside its client (settings: docs/reference/clients.md): its own event
 * loops, a ClientFactory spreading HTTP/1.1 connections over all of them, JSSE, TCP_NODELAY read back from each connection.
 */
final class ArmeriaClients {

    private ArmeriaClients() {
    }

    /** The adapter's own loops, daemon threads named after it: Armeria's shared CommonPools group never closes. */
    static EventLoopGroup loops(AdapterConfig config) {
        int n = config.ioThreads() > 0 ? config.ioThreads() : Flags.numCommonWorkers();
        return EventLoopGroups.newEventLoopGroup(n, "armeria-adapter", true);
    }

    /**
     * HTTP/1.1 connections spread over every loop (Armeria's default is one loop per endpoint); HTTP/2 on one loop,
     * so on one connection. The loops are shut down by the adapter, without the 2 s quiet period of the factory's
     * close, so each connection is kept in {@code channels} as it connects, for close() to end.
     */
    static ClientFactory factory(AdapterConfig config, EventLoopGroup loops, NoDelayTally noDelay,
                                 OpenChannels channels) {
        int n = executorCount(loops);
        ClientFactoryBuilder b = ClientFactory.builder()
                .workerGroup(loops, false)
                .option(ClientFactoryOptions.CHANNEL_PIPELINE_CUSTOMIZER,
                        pipeline -> channels.registered(pipeline.channel()))
                .maxNumEventLoopsPerEndpoint(1)
                .maxNumEventLoopsPerHttp1Endpoint(n)
                .connectTimeout(config.connectTimeout())
                .channelOption(ChannelOption.TCP_NODELAY, true)
                .useHttp2Preface(true) // h2c by prior knowledge with SessionProtocol.H2C
                .useHttp1Pipelining(false)
                .tlsEngineType(TlsEngineType.JDK) // JSSE, as every client here
                .connectionPoolListener(new ConnectionPoolListenerAdapter() {
                    @Override
                    public void connectionOpen(SessionProtocol protocol, InetSocketAddress remoteAddr,
                                               InetSocketAddress localAddr, AttributeMap attrs) {
                        if (attrs instanceof Channel channel) { // Armeria passes the connection's channel
                            noDelay.count(() -> channel.config().getOption(ChannelOption.TCP_NODELAY));
                        }
                    }
                });
        if (config.protocol().tls() && config.trustAllCertificates()) {
            b.tlsNoVerify();
        }
        return b.build();
    }

    /** The client for the target, pinned to the config's protocol; timeout total from the start, body unlimited. */
    static WebClient client(AdapterConfig config, ClientFactory factory) {
        URI target = config.target();
        int port = target.getPort() > 0 ? target.getPort() : config.protocol().tls() ? 443 : 80;
        return WebClient.builder(protocol(config), Endpoint.of(target.getHost(), port))
                .factory(factory)
                .responseTimeout(config.requestTimeout())
                .responseTimeoutMode(ResponseTimeoutMode.FROM_START)
                .writeTimeout(config.requestTimeout())
                .maxResponseLength(0)
                .build();
    }

    static SessionProtocol protocol(AdapterConfig config) {
        return switch (config.protocol()) {
            case HTTP1 -> SessionProtocol.H1C;
            case HTTPS1 -> SessionProtocol.H1;
            case H2C -> SessionProtocol.H2C;
            case H2 -> SessionProtocol.H2;
        };
    }

    /** Armeria's timeouts and closed streams are its own exceptions, not the JDK's. */
    static Outcome outcomeOf(Throwable failure) {
        for (Throwable c : Outcomes.causes(failure)) {
            if (c instanceof com.linecorp.armeria.common.TimeoutException) {
                return Outcome.TIMEOUT; // ResponseTimeoutException, WriteTimeoutException
            }
            if (c instanceof ClosedStreamException) {
                return Outcome.RESET; // ClosedSessionException too: the connection closed under the exchange
            }
        }
        return Outcomes.ofThrowable(failure);
    }

    static int executorCount(EventLoopGroup loops) {
        return loops instanceof MultithreadEventExecutorGroup m ? m.executorCount() : -1;
    }

    /** What the live client and factory run with, read from their options. */
    static Map<String, String> settings(AdapterConfig config, WebClient client, ClientFactory factory, String connectionLimit) {
        var options = client.options();
        var factoryOptions = factory.options();
        Map<String, String> s = AdapterSettings.common(config, connectionLimit, TimeoutKind.TOTAL,
                "responseTimeout " + options.responseTimeoutMillis() + " ms in mode FROM_START (read from the live"
                        + " client's options), less time queued in the adapter: total, connection to the response's end");
        AdapterSettings.http2OneConnection(s, config, "one event loop per endpoint for HTTP/2, so one connection;"
                + " at most " + Http2Ramp.STREAMS + " streams at once (" + Http2Ramp.LIMIT_REASON + "), more wait in the"
                + " adapter");
        s.put("retries", "none: Armeria retries only through a RetryingClient decorator, which is not added (nor is it"
                + " by default)");
        s.put("writeTimeoutMs", Long.toString(options.writeTimeoutMillis()));
        s.put("maxResponseLength", options.maxResponseLength() + " (0: unlimited; Armeria's default 10 MiB)");
        s.put("idleTimeoutMs", factoryOptions.idleTimeoutMillis() + " (Armeria's default)");
        s.put("eventLoopsPerEndpoint", "HTTP/1.1 every loop, HTTP/2 one, as set (no getter; Armeria's default: 1 each)");
        s.put("http2Preface", factoryOptions.useHttp2Preface() + "; http1Pipelining " + factoryOptions.useHttp1Pipelining());
        s.put("tlsEngine", factoryOptions.tlsEngineType() + (config.protocol().tls() && config.trustAllCertificates()
                ? "; tlsNoVerify" : ""));
        s.put("threading", "the adapter's own Armeria event loops (EventLoopGroups), callbacks on them");
        AdapterSettings.ioThreads(s, executorCount(factory.eventLoopGroup()), "Netty event loops (executorCount of the"
                + " factory's worker group)");
        return s;
    }
}
