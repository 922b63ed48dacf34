package clientbench.adapters;

import clientbench.api.AdapterConfig;
import clientbench.api.TrustAllCertificates;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import javax.net.ssl.SSLException;

/**
 * AsyncHttpClient's TLS for h2: with {@code http2Enabled} its own context offers h2 and http/1.1 by ALPN;
 * this one, given with {@code setSslContext}, offers h2 alone, as every client that can is pinned to.
 */
final class AhcTls {

    private AhcTls() {
    }

    static SslContext h2Only(AdapterConfig config) {
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
}
