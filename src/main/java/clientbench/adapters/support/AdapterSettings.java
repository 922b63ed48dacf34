package clientbench.adapters.support;

import clientbench.api.AdapterConfig;
import clientbench.api.Protocol;
import clientbench.api.TimeoutKind;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What every adapter pins the same way, and the start of every adapter's {@code settings()} map, so the
 * results' env.json lists the shared settings first and in the same order for every client.
 */
public final class AdapterSettings {

    /**
     * The one request-preparation policy of every adapter: the client's own request object is built
     * on every send, as the client's users write it. Where the client's API takes a URI string (OkHttp, Vert.x)
     * that includes parsing it; where it takes a {@code java.net.URI}, the one parsed with the Request is used.
     */
    public static final String REQUEST_PREPARATION = "per call: each send builds the client's request from the"
            + " shared Request (method, URI, headers, body) as the client's users write it; nothing is cached or reused";

    private AdapterSettings() {
    }

    /**
     * Refuses HTTP/2 for a client that has none, before the adapter creates anything.
     * @param why what the client lacks, e.g. "the classic client has no HTTP/2"
     * @throws IllegalArgumentException naming the client, what it lacks and the protocol
     */
    public static void refuseHttp2(String client, AdapterConfig config, String why) {
        if (http2(config)) {
            throw new IllegalArgumentException(client + ": " + why + "; protocol " + config.protocol().label()
                    + " refused (use http1 or https1)");
        }
    }

    /** H2C or H2. */
    public static boolean http2(AdapterConfig config) {
        return config.protocol() == Protocol.H2C || config.protocol() == Protocol.H2;
    }

    /**
     * The cause for a response that came on another HTTP version than the pinned one (the server declined
     * the Upgrade, or chose http/1.1 by ALPN): it is reported as OTHER, never measured as ok.
     */
    public static IllegalStateException wrongVersion(AdapterConfig config, String seen) {
        return new IllegalStateException("pinned to " + config.protocol().label() + " but the response came on " + seen);
    }

    /** Records, for HTTP/2 only, how many connections the client uses and why. */
    public static void http2Connections(Map<String, String> settings, AdapterConfig config, String how) {
        if (http2(config)) {
            settings.put("h2Connections", how);
        }
    }

    /**
     * Records, for HTTP/2 only, what every HTTP/2 row runs on: {@code h2Connections} = 1, and in
     * {@code h2Streams} how streams are bounded by the server's SETTINGS_MAX_CONCURRENT_STREAMS and where
     * the requests beyond it wait.
     */
    public static void http2OneConnection(Map<String, String> settings, AdapterConfig config, String streams) {
        if (http2(config)) {
            settings.put("h2Connections", "1");
            settings.put("h2Streams", streams);
        }
    }

    /**
     * Whether the adapter adds its own in-flight limit to a client that has none (HTTP/1.1: maxConnections; HTTP/2:
     * {@link Http2Ramp}): always, but on HTTP/1.1 when the run asks for the library's own limits.
     */
    public static boolean adapterLimits(AdapterConfig config) {
        return http2(config) || !config.tuning().libraryLimits();
    }

    /**
     * Records the I/O threads the live client runs with, read back after start, never the number asked for.
     * @param live the count read from the client; 0 for a client without I/O threads of its own
     * @param kind what they are and how they were read, e.g. "selector threads (ClientConnector.getSelectors)"
     */
    public static void ioThreads(Map<String, String> settings, int live, String kind) {
        settings.put("ioThreads", Integer.toString(live));
        settings.put("ioThreadsKind", kind);
    }

    /**
     * Records TCP_NODELAY as read from the client's configuration, where the live sockets are out of reach.
     * @param from where it was read, e.g. "ClientConnector.isTCPNoDelay() of the live client"
     */
    public static void tcpNoDelay(Map<String, String> settings, boolean on, String from) {
        settings.put("tcpNoDelay", (on ? "on" : "off: Nagle's algorithm on") + " (" + from + ")");
    }

    /**
     * The shared settings, as every adapter applies them.
     * @param connectionLimit how the client enforces {@code maxConnections}, and what it does when all are busy
     * @param timeoutKind whose timer the request timeout is given to, and what it covers
     * @param requestTimeout how the client enforces {@code requestTimeout}: the setting, as read back where it can be
     */
    public static Map<String, String> common(AdapterConfig config, String connectionLimit, TimeoutKind timeoutKind,
                                             String requestTimeout) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("target", config.target().toString());
        s.put("protocol", config.protocol().label());
        s.put("httpVersion", switch (config.protocol()) {
            case HTTP1 -> "HTTP/1.1, no h2c upgrade";
            case HTTPS1 -> "HTTP/1.1 over TLS, h2 not offered by ALPN";
            case H2C -> "HTTP/2 cleartext by prior knowledge (no Upgrade)";
            case H2 -> "HTTP/2 over TLS, ALPN offers h2 only";
        });
        s.put("tuning", config.tuning().label() + ": " + config.tuning().meaning());
        s.put("maxConnections", config.tuning().libraryLimits() ? "the library's own (see connectionLimit)"
                : Integer.toString(config.maxConnections()));
        s.put("connectionLimit", connectionLimit);
        s.put("connectTimeoutMs", Long.toString(config.connectTimeout().toMillis()));
        s.put("requestTimeoutMs", Long.toString(config.requestTimeout().toMillis()));
        s.put("requestTimeout", requestTimeout);
        s.put("timeoutKind", timeoutKind.label());
        s.put("ioThreadsRequested", config.ioThreads() == 0 ? "0 (client default)" : Integer.toString(config.ioThreads()));
        s.put("ioThreads", "not read back"); // the adapter puts what the live client runs with: see ioThreads()
        s.put("ioThreadsKind", "not read back");
        s.put("requestPreparation", REQUEST_PREPARATION);
        s.put("acceptEncoding", clientbench.api.Request.IDENTITY + " (sent explicitly unless the request sets its own; no decompression)");
        s.put("redirects", "off");
        s.put("cookies", "off");
        s.put("retries", config.tuning().libraryRetries() ? "the library's default" : "off");
        s.put("trustAllCertificates", Boolean.toString(config.trustAllCertificates() && config.protocol().tls()));
        return s;
    }
}
