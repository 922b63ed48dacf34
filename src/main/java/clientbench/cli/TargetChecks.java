package clientbench.cli;

import clientbench.api.AdapterConfig;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.security.GeneralSecurityException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * What {@code ./bench --target URL} checks before anything runs: the server accepts a TCP connection and, over TLS, its
 * certificate verifies as the clients will verify it, so that a run of every client does not end in failures all of one
 * kind.
 */
final class TargetChecks {
    static final int TIMEOUT_MILLIS = 2_000;

    private TargetChecks() {
    }

    static int port(URI uri) {
        return uri.getPort() > 0 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
    }

    /** Null when the target answers a TCP connect within 2 s; else why not. */
    static String unreachable(String url) {
        URI uri;
        try {
            uri = AdapterConfig.parseTarget(url);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(uri.getHost(), port(uri)), TIMEOUT_MILLIS);
            return null;
        } catch (IOException e) {
            return "target " + url + " is unreachable (" + e.getMessage() + "); start it first, e.g. ./bench stub --port " + port(uri);
        }
    }

    /**
     * Null when an https target's certificate chain and host name verify with the JDK's default trust (or the
     * target is plain http); else why not, naming both ways out.
     */
    static String unverified(String url) {
        URI uri = AdapterConfig.parseTarget(url);
        if (!"https".equals(uri.getScheme())) {
            return null;
        }
        try (Socket raw = new Socket()) {
            raw.connect(new InetSocketAddress(uri.getHost(), port(uri)), TIMEOUT_MILLIS);
            raw.setSoTimeout(TIMEOUT_MILLIS);
            SSLContext context = SSLContext.getDefault();
            try (SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(raw, uri.getHost(), port(uri), false)) {
                SSLParameters p = tls.getSSLParameters();
                p.setEndpointIdentificationAlgorithm("HTTPS"); // the host name must be one the certificate names (SNI: the host's)
                tls.setSSLParameters(p);
                tls.startHandshake();
            }
            return null;
        } catch (SSLException e) {
            return "target " + url + ": its TLS certificate does not verify (" + rootMessage(e) + "); add its CA to the"
                    + " JDK's trust store (or -Djavax.net.ssl.trustStore=... in JAVA_TOOL_OPTIONS), or pass --insecure to skip verification";
        } catch (IOException | GeneralSecurityException e) {
            return "target " + url + ": TLS handshake failed (" + rootMessage(e) + ")";
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return m.lines().findFirst().orElse(m);
    }
}
