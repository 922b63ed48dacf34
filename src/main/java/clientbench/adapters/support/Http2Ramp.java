package clientbench.adapters.support;

import clientbench.api.AdapterConfig;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The in-flight limit of an adapter that enforces {@code maxConnections} itself: that many on HTTP/1.1; on HTTP/2 one
 * request until the first HTTP/2 response (before it, such clients open a connection per request), then
 * {@value #STREAMS}, one connection's streams, past which the JDK fails requests and OkHttp opens connections.
 */
public final class Http2Ramp {

    /**
     * Streams in flight on the one connection: RFC 9113's recommended minimum for SETTINGS_MAX_CONCURRENT_STREAMS,
     * and the stub's (Netty's default).
     */
    public static final int STREAMS = 100;

    /**
     * Why {@value #STREAMS}: the clients built around one connection (the JDK's, OkHttp) do not say what the
     * server allows, so the adapter keeps to the stub's announced limit.
     */
    public static final String LIMIT_REASON = "the stub's SETTINGS_MAX_CONCURRENT_STREAMS unless started with"
            + " --max-streams; the client does not expose the server's value, so a server announcing fewer is not followed";

    /** How settings() describes the limit on HTTP/2. */
    public static final String LIMIT = "one request until the first HTTP/2 response, then " + STREAMS
            + " (the streams of one connection); more wait in the queue";

    private final AtomicBoolean raised = new AtomicBoolean();
    private final Runnable raise;

    /** @param raise raises the adapter's limit from {@link #initialLimit} to {@link #STREAMS}; runs once */
    public Http2Ramp(Runnable raise) {
        this.raise = raise;
    }

    /** The adapter's limit to start with: maxConnections over HTTP/1.1, one request over HTTP/2. */
    public static int initialLimit(AdapterConfig config) {
        return AdapterSettings.http2(config) ? 1 : config.maxConnections();
    }

    /** Called on every response, on the thread that has it; one volatile read once raised. */
    public void onResponse(boolean http2) {
        if (http2 && !raised.get() && raised.compareAndSet(false, true)) {
            raise.run();
        }
    }
}
