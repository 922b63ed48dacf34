package clientbench.adapters.reactor;

import clientbench.api.AdapterConfig;
import clientbench.api.Protocol;
import clientbench.api.TrustAllCertificates;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import java.util.function.Consumer;
import javax.net.ssl.SSLSession;
import reactor.netty.http.Http11SslContextSpec;
import reactor.netty.http.Http2SslContextSpec;

/**
 * The adapter's TLS: the JDK's JSSE engine for every client alike, ALPN offering h2 alone for h2
 * ({@code Http2SslContextSpec}'s default offers h2 and http/1.1) and none for https1.
 */
final class ReactorTls {

    private ReactorTls() {
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
}
