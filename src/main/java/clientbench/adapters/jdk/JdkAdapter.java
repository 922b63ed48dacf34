package clientbench.adapters.jdk;

import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import clientbench.adapters.support.AsyncPermits;
import clientbench.adapters.support.Http2Ramp;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The JDK's {@link java.net.http.HttpClient}, asynchronous ({@code sendAsync}).
 * Docs: https://docs.oracle.com/en/java/javase/21/docs/api/java.net.http/java/net/http/HttpClient.html
 *
 * <p>Settings that differ from the client's defaults (built by {@link JdkClients}):
 * <ul>
 *   <li>version HTTP/1.1 for http1 and https1 (default HTTP/2: h2c upgrade on http://, ALPN h2 on https://);
 *       HTTP/2, the default, for h2c and h2. The client cannot do h2c by prior knowledge: on h2c the first
 *       request of each connection is an HTTP/1.1 Upgrade (see {@link JdkClients});</li>
 *   <li>connect timeout from the config (default none);</li>
 *   <li>per-request timeout = request timeout less the time queued here (default none). Up to JDK 25 it
 *       ends when the response headers arrive; JDK 26 extends it over the body (JDK-8208693);</li>
 *   <li>connection limit: the client has none ({@code jdk.httpclient.connectionPoolSize} only caps idle
 *       connections), so at most {@code maxConnections} exchanges run at once; the rest wait in a FIFO
 *       queue here without blocking the caller, and one whose deadline passes while queued ends as
 *       {@code TIMEOUT} without being sent. On HTTP/2: one exchange until the first HTTP/2 response,
 *       then 100, the streams of the one connection the client uses ({@link Http2Ramp});</li>
 *   <li>{@code Accept-Encoding: identity} sent explicitly (the client never compresses on its own);</li>
 *   <li>a trust-all {@code SSLContext} when the config asks for it.</li>
 * </ul>
 * Redirects ({@code NEVER}) and cookies (no handler) are already off by default. The connect retry is off
 * ({@code jdk.httpclient.disableRetryConnect}, set by {@link JdkClients}); the client still sends an HTTP/1.1
 * GET again once when its connection closes or resets before the first response byte, and has no switch for
 * that (see {@link JdkClients}). An exchange gives its permit back before it reports, as the virtual-thread
 * adapters do: a request the harness sends in reply to that report finds the permit free (unless others
 * already wait for one) and starts on the harness's thread, not later from a JDK worker after this
 * completion. The JDK request is built on every send, as its users write it.
 */
public final class JdkAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final HttpClient client;
    private final AsyncPermits permits;
    private final Http2Ramp ramp;
    /** Requests sent and not yet reported, which close() waits for (one increment and decrement per request). */
    private final AtomicInteger unreported = new AtomicInteger();
    private volatile boolean closed;

    public JdkAdapter(AdapterConfig config) {
        this.config = config;
        this.permits = new AsyncPermits(Http2Ramp.initialLimit(config));
        this.ramp = new Http2Ramp(() -> permits.grow(Http2Ramp.STREAMS - Http2Ramp.initialLimit(config)));
        this.client = JdkClients.newClient(config);
    }

    @Override
    public void send(Request request, Completion completion) {
        if (closed) {
            completion.complete(Outcome.REJECTED, 0, new RejectedExecutionException(name() + " is closed"));
            return;
        }
        long queuedAtNanos = System.nanoTime();
        unreported.incrementAndGet();
        permits.submit(() -> start(request, completion, queuedAtNanos));
    }

    /** Runs holding a permit; every path gives it back once, before the completion. */
    private void start(Request request, Completion completion, long queuedAtNanos) {
        Duration remaining = config.requestTimeout().minusNanos(System.nanoTime() - queuedAtNanos);
        CompletableFuture<HttpResponse<Long>> exchange;
        try {
            if (remaining.isNegative() || remaining.isZero()) {
                throw new HttpTimeoutException("request timed out while queued for a connection");
            }
            exchange = client.sendAsync(JdkClients.toJdk(request, remaining), JdkClients.COUNT_BODY);
        } catch (HttpTimeoutException | RuntimeException e) { // queued too long, or refused, e.g. after close()
            permits.release();
            report(completion, Outcomes.ofThrowable(e), 0, -1, e);
            return;
        }
        exchange.whenComplete((response, failure) -> {
            permits.release();
            if (failure != null) {
                report(completion, Outcomes.ofThrowable(failure), 0, -1, failure);
                return;
            }
            IllegalStateException wrongVersion = JdkClients.wrongVersion(config, response);
            ramp.onResponse(response.version() == HttpClient.Version.HTTP_2);
            report(completion, wrongVersion != null ? Outcome.OTHER
                            : Outcomes.ofResponse(request, response.statusCode(), response.body()),
                    response.statusCode(), response.body(), wrongVersion);
        });
    }

    private void report(Completion completion, Outcome outcome, int status, long bodyBytes, Throwable cause) {
        try {
            completion.complete(outcome, status, bodyBytes, cause);
        } finally {
            unreported.decrementAndGet();
        }
    }

    /**
     * Returns once every request sent before it is reported (at most 5 s more). The client's shutdown does not
     * wait for that: it completes each exchange's future in the JVM's common pool ({@code HttpClientImpl.sendAsync}
     * runs dependent actions there), so without this wait requests would be reported after close() returned.
     */
    @Override
    public void close() {
        closed = true;
        JdkClients.shutdown(client);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (unreported.get() > 0 && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    @Override
    public String libraryVersion() {
        return "java.net.http:" + Runtime.version();
    }

    @Override
    public Map<String, String> settings() {
        return JdkClients.settings(config, client, JdkClients.connectionLimit(config, "at most maxConnections"
                        + " exchanges at once; more wait in a queue in the adapter, without blocking the caller"),
                "sendAsync; the client's selector thread and default executor (a cached pool)");
    }

    @Override
    public String name() {
        return "jdk";
    }
}
