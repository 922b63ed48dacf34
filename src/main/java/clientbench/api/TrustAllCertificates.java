package clientbench.api;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Accepts any server certificate and host name, to reach the stub's self-signed one; never for a real server. It is an
 * {@link X509ExtendedTrustManager} on purpose: JSSE wraps a plain {@code X509TrustManager} in one that still checks the
 * host name, and the stub's certificate does not name 127.0.0.1.
 */
public final class TrustAllCertificates {

    private static final X509ExtendedTrustManager TRUST_ALL = new X509ExtendedTrustManager() {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    };

    private TrustAllCertificates() {
    }

    /** The trust manager, for clients that take one next to the socket factory (OkHttp). */
    public static X509ExtendedTrustManager trustManager() {
        return TRUST_ALL;
    }

    /** A new TLS context trusting everything; new per call so adapters never share a session cache. */
    public static SSLContext sslContext() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {TRUST_ALL}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot create a trust-all TLS context: " + e, e);
        }
    }
}
