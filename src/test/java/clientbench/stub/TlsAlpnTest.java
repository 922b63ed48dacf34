package clientbench.stub;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyStore;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** With --tls the stub presents its fresh self-signed certificate and lets ALPN choose h2 or http/1.1. */
@Timeout(30)
class TlsAlpnTest {
    @RegisterExtension
    static final StubExtension tls = new StubExtension(StubOptions.loopback().withTls(true));
    static StubServer stub;
    static SSLContext trustStub;

    @BeforeAll
    static void trust() throws Exception {
        stub = tls.server();
        KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
        ks.load(null, null);
        ks.setCertificateEntry("stub", stub.certificate());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        trustStub = SSLContext.getInstance("TLS");
        trustStub.init(null, tmf.getTrustManagers(), null);
    }

    @Test
    void alpnPrefersH2AndFallsBackToHttp11() throws Exception {
        assertEquals("h2", negotiate("h2", "http/1.1"));
        assertEquals("http/1.1", negotiate("http/1.1"));
    }

    @Test
    void requestsWorkOverTlsInBothVersions() throws Exception {
        for (HttpClient.Version v : HttpClient.Version.values()) {
            try (HttpClient client = HttpClient.newBuilder().sslContext(trustStub).version(v).build()) {
                // The certificate names localhost, so the URL does too (it resolves to the loopback the stub binds).
                HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(
                        java.net.URI.create("https://localhost:" + stub.port() + "/?bytes=2048")).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                assertEquals(v, r.version());
                assertEquals(2048, r.body().length);
            }
        }
    }

    private static String negotiate(String... protocols) throws Exception {
        try (SSLSocket s = (SSLSocket) trustStub.getSocketFactory().createSocket("127.0.0.1", stub.port())) {
            SSLParameters p = s.getSSLParameters();
            p.setApplicationProtocols(protocols);
            s.setSSLParameters(p);
            s.startHandshake();
            return s.getApplicationProtocol();
        }
    }
}
