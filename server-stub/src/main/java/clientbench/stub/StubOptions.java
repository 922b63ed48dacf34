package clientbench.stub;

/**
 * How the stub listens: {@code port} 0 picks a free one ({@link StubServer#port()}); {@code tls} serves a self-signed
 * certificate made at start with ALPN h2 and http/1.1; {@code printStats} prints connections and requests/s each
 * second; {@code maxStreams} is HTTP/2's SETTINGS_MAX_CONCURRENT_STREAMS.
 */
public record StubOptions(String host, int port, int ioThreads, boolean tls, boolean printStats, int maxStreams) {

    /** RFC 9113's recommended minimum for SETTINGS_MAX_CONCURRENT_STREAMS, and Netty's default. */
    public static final int DEFAULT_MAX_STREAMS = 100;

    public StubOptions(String host, int port, int ioThreads, boolean tls, boolean printStats) {
        this(host, port, ioThreads, tls, printStats, DEFAULT_MAX_STREAMS);
    }

    public StubOptions {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host must not be empty");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be 0-65535, was " + port);
        }
        if (ioThreads < 1 || ioThreads > 1024) {
            throw new IllegalArgumentException("io-threads must be 1-1024, was " + ioThreads);
        }
        if (maxStreams < 1) {
            throw new IllegalArgumentException("max-streams must be >= 1, was " + maxStreams);
        }
    }

    /** Loopback, a free port, one event loop, no TLS, quiet: what tests want. */
    public static StubOptions loopback() {
        return new StubOptions("127.0.0.1", 0, 1, false, false);
    }

    public StubOptions withTls(boolean on) {
        return new StubOptions(host, port, ioThreads, on, printStats, maxStreams);
    }

    public StubOptions withPort(int p) {
        return new StubOptions(host, p, ioThreads, tls, printStats, maxStreams);
    }
}
