package clientbench.adapters;

import clientbench.api.AdapterConfig;
import clientbench.api.Protocol;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What every adapter pins the same way, and the start of every adapter's {@code settings()} map, so the
 * results' env.json lists the shared settings first and in the same order for every client.
 */
final class AdapterSettings {

    /** Sent on every request by every adapter: no client may ask for gzip or decompress on its own. */
    static final String ACCEPT_ENCODING = "Accept-Encoding";
    static final String IDENTITY = "identity";
    /** Sent with every POST body, so that clients that add a content type and those that do not agree. */
    static final String CONTENT_TYPE = "Content-Type";
    static final String OCTET_STREAM = "application/octet-stream";

    private AdapterSettings() {
    }

    /**
     * Refuses what the adapters do not wire up yet, before the adapter creates anything.
     *
     * @throws IllegalArgumentException naming the client and the protocol
     */
    static void requireHttp1(String client, AdapterConfig config) {
        if (config.protocol() != Protocol.HTTP1 && config.protocol() != Protocol.HTTPS1) {
            throw new IllegalArgumentException(
                    client + " does not support protocol " + config.protocol().label() + " yet");
        }
    }

    /**
     * The shared settings, as every adapter applies them.
     *
     * @param connectionLimit how the client enforces {@code maxConnections}, and what it does when all are busy
     * @param requestTimeout how the client enforces {@code requestTimeout}, and what it covers
     */
    static Map<String, String> common(AdapterConfig config, String connectionLimit, String requestTimeout) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("target", config.target().toString());
        s.put("protocol", config.protocol().label());
        s.put("httpVersion", "HTTP/1.1" + (config.protocol().tls() ? " over TLS, h2 not offered by ALPN" : ", no h2c upgrade"));
        s.put("maxConnections", Integer.toString(config.maxConnections()));
        s.put("connectionLimit", connectionLimit);
        s.put("connectTimeoutMs", Long.toString(config.connectTimeout().toMillis()));
        s.put("requestTimeoutMs", Long.toString(config.requestTimeout().toMillis()));
        s.put("requestTimeout", requestTimeout);
        s.put("ioThreads", config.ioThreads() == 0 ? "client default" : Integer.toString(config.ioThreads()));
        s.put("acceptEncoding", IDENTITY + " (sent explicitly; no decompression)");
        s.put("redirects", "off");
        s.put("cookies", "off");
        s.put("retries", "off");
        s.put("trustAllCertificates", Boolean.toString(config.trustAllCertificates() && config.protocol().tls()));
        return s;
    }
}
