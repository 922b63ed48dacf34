package clientbench.stub;

/**
 * How the stub listens.
 *
 * @param host address to bind; loopback unless someone asks for more
 * @param port TCP port; 0 picks a free one (see {@link StubServer#port()})
 * @param ioThreads event-loop threads serving connections
 * @param tls serve TLS with a self-signed certificate made at start, ALPN {@code h2} and {@code http/1.1}
 * @param printStats print one line a second (open connections, requests/s) to standard output
 * @param maxStreams HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS: the streams a client may have open on one connection
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
