package clientbench.adapters.helidon;

import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.LibraryVersion;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import clientbench.api.TrustAllCertificates;
import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.DeadlineTimer;
import clientbench.adapters.support.VirtualThreads;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.tls.Tls;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.encoding.ContentEncodingContext;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientRequest;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Helidon WebClient 4, HTTP/1.1 ({@code Http1Client}, blocking), one virtual thread per request.
 * Docs: https://helidon.io/docs/v4/se/webclient
 *
 * <p>Settings that differ from the client's defaults:
 * <ul>
 *   <li>{@code Http1Client}: HTTP/1.1 only, ALPN offers http/1.1 (the generic {@code WebClient} picks
 *       among the protocols on the class path);</li>
 *   <li>no connection limit in Helidon (its cache bounds idle connections only), so each virtual thread
 *       first waits for one of maxConnections permits of a fair semaphore; connectionCacheSize =
 *       maxConnections (default 256); shareConnectionCache false (default true: a JVM-wide cache);</li>
 *   <li>connect timeout from the config, readTimeout = requestTimeout (defaults 10 s, 30 s); no whole-exchange
 *       timeout in Helidon, so a {@link DeadlineTimer} interrupts the virtual thread (closing its socket)
 *       requestTimeout after send(), permit wait included, reported as {@code TIMEOUT};</li>
 *   <li>followRedirects false and sendExpectContinue false (defaults true); content encodings not
 *       discovered from the class path, so nothing is decoded; cookies: none stored by default;</li>
 *   <li>{@code Accept-Encoding: identity} sent explicitly; trust-all TLS without endpoint identification when asked.</li>
 * </ul>
 * Virtual threads come from a per-adapter thread-per-task executor named {@code helidon-vt-N}; Helidon
 * also parks a virtual thread on each idle cached connection to notice when the server closes it.
 */
public final class HelidonAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final Http1Client client;
    private final Semaphore permits;
    private final DeadlineTimer deadlines;
    private final ExecutorService threads;
    private final Map<String, String> settings;

    public HelidonAdapter(AdapterConfig config) {
        AdapterSettings.requireHttp1(name(), config);
        this.config = config;
        this.permits = new Semaphore(config.maxConnections(), true);
        Map<String, String> s = AdapterSettings.common(config,
                "at most maxConnections exchanges at once; more wait on a fair semaphore in their virtual thread",
                "adapter deadline interrupts the exchange (the client has no whole-exchange timeout); readTimeout the same");
        s.put("threading", VirtualThreads.THREADING + "; one deadline thread of the adapter");
        this.settings = Collections.unmodifiableMap(s);
        var builder = Http1Client.builder()
                .connectTimeout(config.connectTimeout())
                .readTimeout(config.requestTimeout())
                .followRedirects(false)
                .keepAlive(true)
                .sendExpectContinue(false)
                .shareConnectionCache(false)
                .connectionCacheSize(config.maxConnections())
                .contentEncoding(ContentEncodingContext.builder().contentEncodingsDiscoverServices(false).build());
        if (config.trustAllCertificates() && config.protocol().tls()) {
            builder.tls(Tls.builder().sslContext(TrustAllCertificates.sslContext())
                    .endpointIdentificationAlgorithm(Tls.ENDPOINT_IDENTIFICATION_NONE).build());
        }
        this.client = builder.build();
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
            try (HttpClientResponse response = call(request)) {
                status = response.status().code();
                bodyBytes = response.inputStream().transferTo(OutputStream.nullOutputStream());
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

    private HttpClientResponse call(Request request) {
        Http1ClientRequest r = client.method(Method.create(request.method())).uri(request.uri());
        request.headers().forEach(h -> r.header(HeaderNames.create(h.name()), h.value()));
        return request.hasBody()
                ? r.header(HeaderNames.CONTENT_TYPE, request.contentType()).submit(request.body())
                : r.request();
    }

    @Override
    public void close() {
        VirtualThreads.shutdown(threads); // an interrupted virtual thread closes the socket it is blocked on
        client.closeResource(); // closes the idle cached connections
        deadlines.close();
    }

    @Override
    public String libraryVersion() {
        return LibraryVersion.of(Http1Client.class, "io.helidon.webclient", "helidon-webclient-http1");
    }

    @Override
    public Map<String, String> settings() {
        return settings;
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
