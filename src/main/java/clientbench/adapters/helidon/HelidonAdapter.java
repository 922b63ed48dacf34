package clientbench.adapters.helidon;

import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.LibraryVersion;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.DeadlineTimer;
import clientbench.adapters.support.Http2Ramp;
import clientbench.adapters.support.VirtualThreads;
import io.helidon.common.buffers.DataReader;
import io.helidon.webclient.api.HttpClient;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http2.Http2Client;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Helidon WebClient 4, blocking, one virtual thread per request: {@code Http1Client} for HTTP/1.1,
 * {@code Http2Client} for h2c and h2 (built by {@link HelidonClients}). Docs: https://helidon.io/docs/v4/se/webclient
 *
 * <p>Settings that differ from the client's defaults:
 * <ul>
 *   <li>{@code Http1Client}: HTTP/1.1 only, ALPN offers http/1.1 (the generic {@code WebClient} picks
 *       among the protocols on the class path); {@code Http2Client} with priorKnowledge true (default false:
 *       an Upgrade for h2c, ALPN h2 and http/1.1 for h2), so h2c starts with the preface and ALPN offers h2 alone;</li>
 *   <li>no connection limit in Helidon (its HTTP/1.1 cache bounds idle connections only), so each virtual
 *       thread first waits for a permit of a fair semaphore: maxConnections of them over HTTP/1.1; over HTTP/2
 *       one until the first response, then 100, the stub's SETTINGS_MAX_CONCURRENT_STREAMS ({@link Http2Ramp}):
 *       over TLS, requests that find no connection yet each open one (4.5.0's {@code Http2ClientConnectionHandler}
 *       checks for an existing connection only after its TLS branch), and Helidon opens another connection
 *       whenever the first one's streams are full; connectionCacheSize = maxConnections (default 256);
 *       shareConnectionCache false (default true: a JVM-wide cache);</li>
 *   <li>connect timeout from the config, readTimeout = requestTimeout (defaults 10 s, 30 s); no whole-exchange
 *       timeout in Helidon, so a {@link DeadlineTimer} interrupts the virtual thread (closing its socket)
 *       requestTimeout after send(), permit wait included, reported as {@code TIMEOUT};</li>
 *   <li>TCP_NODELAY on (default off: Nagle's algorithm held HTTP/2 frames for the server's delayed ACK), read
 *       back from each socket as it connects;</li>
 *   <li>followRedirects false and sendExpectContinue false (defaults true); content encodings not
 *       discovered from the class path, so nothing is decoded; cookies: none stored by default;</li>
 *   <li>the body is read through a buffer of its expected size, not {@code transferTo}'s 16 KiB: Helidon
 *       allocates a buffer of each read's length on every read ({@link HelidonClients#drain});</li>
 *   <li>{@code Accept-Encoding: identity} sent explicitly; TLS is the JDK's JSSE (Helidon has no other),
 *       trust-all without endpoint identification when asked; otherwise the JDK's default trust and host-name
 *       check, against the host as the URL names it (a resolver of the adapter's: Helidon's own has an IP
 *       literal checked as its reverse DNS name).</li>
 * </ul>
 * close() also closes every socket Helidon connected and still holds open, through a {@code ConnectionListener}:
 * Helidon loses track of a connection whose exchange failed outside the status line ({@link HelidonClients.Sockets}).
 * Virtual threads come from a per-adapter thread-per-task executor named {@code helidon-vt-N}; Helidon
 * also parks a virtual thread on each idle HTTP/1.1 connection to notice when the server closes it, and
 * runs each HTTP/2 connection's reader on one.
 */
public final class HelidonAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final HttpClient<?> client;
    private final HelidonClients.Sockets sockets = new HelidonClients.Sockets();
    private final Semaphore permits;
    private final Http2Ramp ramp;
    private final DeadlineTimer deadlines;
    private final ExecutorService threads;
    private final Map<String, String> settings;

    public HelidonAdapter(AdapterConfig config) {
        this.config = config;
        this.permits = new Semaphore(Http2Ramp.initialLimit(config), true);
        this.ramp = new Http2Ramp(() -> permits.release(Http2Ramp.STREAMS - Http2Ramp.initialLimit(config)));
        this.settings = HelidonClients.settings(config);
        this.client = HelidonClients.create(config, sockets);
        this.deadlines = new DeadlineTimer(name() + "-deadline");
        this.threads = VirtualThreads.perRequest(name());
    }

    @Override
    public void send(Request request, Completion completion) {
        long queuedAtNanos = System.nanoTime();
        VirtualThreads.start(threads, completion, () -> exchange(request, completion, queuedAtNanos));
    }

    /** Runs on the request's virtual thread; the deadline covers the wait for a permit too. */
    private void exchange(Request request, Completion completion, long queuedAtNanos) {
        Outcome outcome;
        int status = 0;
        long bodyBytes = -1;
        Throwable failure = null;
        AtomicBoolean expired = new AtomicBoolean();
        Thread self = Thread.currentThread();
        ScheduledFuture<?> deadline = null;
        try {
            long left = config.requestTimeout().toNanos() - (System.nanoTime() - queuedAtNanos);
            deadline = deadlines.schedule(Duration.ofNanos(Math.max(1, left)), () -> {
                expired.set(true);
                self.interrupt(); // a virtual thread blocked on a socket closes it and throws
            });
            permits.acquire();
            try (HttpClientResponse response = HelidonClients.call(client, request)) {
                status = response.status().code();
                ramp.onResponse(AdapterSettings.http2(config)); // with prior knowledge every response is on HTTP/2
                bodyBytes = HelidonClients.drain(response, request.expectedBodyBytes());
                outcome = Outcomes.ofResponse(request, status, bodyBytes);
            } finally {
                permits.release();
            }
        } catch (Exception e) {
            outcome = expired.get() ? Outcome.TIMEOUT : outcomeOf(e);
            failure = e;
        } finally {
            if (deadline != null) {
                deadline.cancel(false);
            }
        }
        completion.complete(outcome, status, bodyBytes, failure);
    }

    @Override
    public void close() {
        VirtualThreads.shutdown(threads); // an interrupted virtual thread closes the socket it is blocked on
        try {
            client.closeResource(); // closes the idle cached connections
        } catch (UncheckedIOException e) {
            // An HTTP/2 connection the server has already reset: its GOAWAY cannot be written, and it is gone.
        } finally {
            sockets.closeAll(); // and the ones Helidon lost track of (see HelidonClients.Sockets)
            deadlines.close();
        }
    }

    @Override
    public String libraryVersion() {
        return AdapterSettings.http2(config)
                ? LibraryVersion.of(Http2Client.class, "io.helidon.webclient", "helidon-webclient-http2")
                : LibraryVersion.of(Http1Client.class, "io.helidon.webclient", "helidon-webclient-http1");
    }

    @Override
    public Map<String, String> settings() {
        return sockets.noDelay().addTo(settings);
    }

    @Override
    public String name() {
        return "helidon";
    }

    /** Helidon's connect timeout is a SocketTimeoutException; a connection closed before the answer is no IOException. */
    static Outcome outcomeOf(Throwable failure) {
        for (Throwable c = failure; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof SocketTimeoutException t && String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT).contains("connect")) {
                return Outcome.CONNECT;
            }
            if (c instanceof DataReader.InsufficientDataAvailableException) {
                return Outcome.RESET;
            }
        }
        return Outcomes.ofThrowable(failure);
    }
}
