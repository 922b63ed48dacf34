package clientbench.api;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * The settings every adapter applies identically, so that no client wins by configuration. {@code requestTimeout}
 * bounds the whole exchange, body included; {@code ioThreads} 0 keeps the client's default, and what each live client
 * runs with is read back into its settings; {@code trustAllCertificates} is for the stub, never a real server;
 * {@code tuning}: the suite's pins (every benchmark), or the library's own defaults where a run asks ({@link Tuning}).
 */
public record AdapterConfig(URI target, Protocol protocol, int maxConnections, Duration connectTimeout,
                            Duration requestTimeout, int ioThreads, boolean trustAllCertificates, Tuning tuning) {

    /** With the suite's tuning, as every benchmark runs. */
    public AdapterConfig(URI target, Protocol protocol, int maxConnections, Duration connectTimeout,
                         Duration requestTimeout, int ioThreads, boolean trustAllCertificates) {
        this(target, protocol, maxConnections, connectTimeout, requestTimeout, ioThreads, trustAllCertificates, Tuning.SUITE);
    }

    public static final int DEFAULT_MAX_CONNECTIONS = 64;
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(2);
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(5);

    public AdapterConfig {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        Objects.requireNonNull(tuning, "tuning");
        String scheme = target.getScheme();
        if (scheme == null || !(scheme.equals("http") || scheme.equals("https")) || target.getHost() == null) {
            throw new IllegalArgumentException("invalid target URL '" + target + "': need http://host:port or https://host:port");
        }
        if (scheme.equals("https") != protocol.tls()) {
            throw new IllegalArgumentException("target URL '" + target + "' does not match protocol " + protocol.label()
                    + (protocol.tls() ? " (needs https://)" : " (needs http://)"));
        }
        if (maxConnections <= 0) {
            throw new IllegalArgumentException("maxConnections must be > 0, was " + maxConnections);
        }
        if (connectTimeout.isNegative() || connectTimeout.isZero()) {
            throw new IllegalArgumentException("connectTimeout must be > 0, was " + connectTimeout);
        }
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("requestTimeout must be > 0, was " + requestTimeout);
        }
        if (ioThreads < 0) {
            throw new IllegalArgumentException("ioThreads must be >= 0, was " + ioThreads);
        }
    }

    /** Parses a target URL, naming it in the error when it is not one. */
    public static URI parseTarget(String url) {
        try {
            URI uri = new URI(url.trim());
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw new IllegalArgumentException("invalid target URL '" + url + "': need http://host:port");
            }
            return uri;
        } catch (java.net.URISyntaxException | NullPointerException e) {
            throw new IllegalArgumentException("invalid target URL '" + url + "': " + e.getMessage(), e);
        }
    }

    /** The defaults for a target: HTTP/1.1 (or HTTPS/1.1), 64 connections, 2 s connect, 5 s request. */
    public static AdapterConfig defaults(URI target) {
        Protocol p = "https".equals(target.getScheme()) ? Protocol.HTTPS1 : Protocol.HTTP1;
        return new AdapterConfig(target, p, DEFAULT_MAX_CONNECTIONS, DEFAULT_CONNECT_TIMEOUT,
                DEFAULT_REQUEST_TIMEOUT, 0, true);
    }

    public AdapterConfig withMaxConnections(int n) {
        return new AdapterConfig(target, protocol, n, connectTimeout, requestTimeout, ioThreads, trustAllCertificates, tuning);
    }

    public AdapterConfig withRequestTimeout(Duration d) {
        return new AdapterConfig(target, protocol, maxConnections, connectTimeout, d, ioThreads, trustAllCertificates, tuning);
    }

    public AdapterConfig withIoThreads(int n) {
        return new AdapterConfig(target, protocol, maxConnections, connectTimeout, requestTimeout, n, trustAllCertificates, tuning);
    }

    public AdapterConfig withTuning(Tuning t) {
        return new AdapterConfig(target, protocol, maxConnections, connectTimeout, requestTimeout, ioThreads,
                trustAllCertificates, t);
    }

    public AdapterConfig withTarget(URI t) {
        return new AdapterConfig(t, protocol, maxConnections, connectTimeout, requestTimeout, ioThreads, trustAllCertificates, tuning);
    }
}
