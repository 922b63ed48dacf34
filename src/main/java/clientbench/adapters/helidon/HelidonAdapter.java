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
import clientbench.adapters.support.OpenBodies;
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
 * Helidon WebClient 4 on virtual threads, Http1Client or Http2Client. Docs: https://helidon.io/docs/v4/se/webclient
 * Lacking a connection limit and whole-exchange timeout, it gets a fair semaphore ({@link Http2Ramp}) and a
 * {@link DeadlineTimer} (with the library's own timeout, its readTimeout alone). TCP_NODELAY on (Nagle delayed HTTP/2
 * frames); no redirects; close() closes lost sockets.
 */
public final class HelidonAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final HttpClient<?> client;
    private final HelidonClients.Sockets sockets = new HelidonClients.Sockets();
    private final Semaphore permits;
    private final Http2Ramp ramp;
    /** Null with the library's own timeout. */
    private final DeadlineTimer deadlines;
    private final ExecutorService threads;
    private final Map<String, String> settings;
    private final OpenBodies leftOpen = new OpenBodies();

    public HelidonAdapter(AdapterConfig config) {
        this.config = config;
        this.permits = new Semaphore(AdapterSettings.adapterLimits(config) ? Http2Ramp.initialLimit(config) : Integer.MAX_VALUE, true);
        this.ramp = new Http2Ramp(() -> permits.release(Http2Ramp.STREAMS - Http2Ramp.initialLimit(config)));
        this.client = HelidonClients.create(config, sockets);
        this.settings = HelidonClients.settings(config, client);
        this.deadlines = config.tuning().libraryTimeout() ? null : new DeadlineTimer(name() + "-deadline");
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
            if (deadlines != null) {
                long left = config.requestTimeout().toNanos() - (System.nanoTime() - queuedAtNanos);
                deadline = deadlines.schedule(Duration.ofNanos(Math.max(1, left)), () -> {
                    expired.set(true);
                    self.interrupt(); // a virtual thread blocked on a socket closes it and throws
                });
            }
            permits.acquire();
            if (request.leavesBodyOpen()) { // the response neither read nor closed: its connection stays with it
                try {
                    HttpClientResponse response = HelidonClients.call(client, request);
                    leftOpen.hold(response, HttpClientResponse::close);
                    status = response.status().code();
                    outcome = Outcomes.ofResponse(request, status, -1);
                } finally {
                    permits.release();
                }
            } else {
                try (HttpClientResponse response = HelidonClients.call(client, request)) {
                    status = response.status().code();
                    ramp.onResponse(AdapterSettings.http2(config)); // with prior knowledge every response is on HTTP/2
                    // A caller that abandons the body closes the response unread: Helidon decides about the connection.
                    bodyBytes = request.abandonsBody() ? -1
                            : HelidonClients.drain(response, request.expectedBodyBytes());
                    outcome = Outcomes.ofResponse(request, status, bodyBytes);
                } finally {
                    permits.release();
                }
            }
        } catch (Exception e) {
            outcome = expired.get() ? Outcome.TIMEOUT : outcomeOf(e);
            failure = e;
        } catch (Error e) { // a library class that failed to initialise, say: reported all the same, never left hanging
            outcome = Outcome.OTHER;
            failure = e;
        } finally {
            if (deadline != null) {
                deadline.cancel(false);
            }
        }
        completion.complete(outcome, status, bodyBytes, failure);
        if (failure instanceof VirtualMachineError e) {
            throw e;
        }
    }

    @Override
    public void close() {
        leftOpen.closeAll();
        VirtualThreads.shutdown(threads); // an interrupted virtual thread closes the socket it is blocked on
        try {
            client.closeResource(); // closes the idle cached connections
        } catch (UncheckedIOException e) {
            // An HTTP/2 connection the server has already reset: its GOAWAY cannot be written, and it is gone.
        } finally {
            sockets.closeAll(); // and the ones Helidon lost track of (see HelidonClients.Sockets)
            if (deadlines != null) {
                deadlines.close();
            }
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
