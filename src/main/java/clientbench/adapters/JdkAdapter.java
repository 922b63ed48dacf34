package clientbench.adapters;

import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import clientbench.api.TrustAllCertificates;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;

/**
 * The JDK's {@link java.net.http.HttpClient}, asynchronous ({@code sendAsync}).
 * Docs: https://docs.oracle.com/en/java/javase/21/docs/api/java.net.http/java/net/http/HttpClient.html
 *
 * <p>Settings that differ from the client's defaults:
 * <ul>
 *   <li>version HTTP/1.1 (default HTTP/2: h2c upgrade on http://, ALPN h2 on https://);</li>
 *   <li>connect timeout from the config (default none);</li>
 *   <li>per-request timeout = request timeout less the time queued here (default none). Up to JDK 25 it
 *       ends when the response headers arrive; JDK 26 extends it over the body (JDK-8208693);</li>
 *   <li>connection limit: the client has none ({@code jdk.httpclient.connectionPoolSize} only caps idle
 *       connections), so at most {@code maxConnections} exchanges run at once; the rest wait in a FIFO
 *       queue here without blocking the caller, and one whose deadline passes while queued ends as
 *       {@code TIMEOUT} without being sent;</li>
 *   <li>{@code Accept-Encoding: identity} sent explicitly (the client never compresses on its own);</li>
 *   <li>a trust-all {@code SSLContext} when the config asks for it.</li>
 * </ul>
 * Redirects ({@code NEVER}) and cookies (no handler) are already off by default. Retries stay the
 * client's: it retries a refused connect unless {@code -Djdk.httpclient.disableRetryConnect=true}, a
 * JVM-wide property, and an idempotent request whose pooled connection turns out to be closed.
 */
public final class JdkAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final HttpClient client;
    private final AsyncPermits permits;
    private final Map<String, String> settings;
    private volatile boolean closed;

    public JdkAdapter(AdapterConfig config) {
        AdapterSettings.requireHttp1(name(), config);
        this.config = config;
        this.permits = new AsyncPermits(config.maxConnections());
        this.settings = settings(config,
                "at most maxConnections exchanges at once; more wait in a queue in the adapter, without blocking the caller",
                "sendAsync; the client's selector thread and default executor (a cached pool)");
        this.client = newClient(config);
    }

    @Override
    public void send(Request request, Completion completion) {
        if (closed) {
            completion.complete(Outcome.REJECTED, 0, new RejectedExecutionException(name() + " is closed"));
            return;
        }
        long queuedAtNanos = System.nanoTime();
        permits.submit(() -> start(request, completion, queuedAtNanos));
    }

    /** Runs holding a permit; every path gives it back once, after the completion. */
    private void start(Request request, Completion completion, long queuedAtNanos) {
        Duration remaining = config.requestTimeout().minusNanos(System.nanoTime() - queuedAtNanos);
        CompletableFuture<HttpResponse<Long>> exchange;
        try {
            if (remaining.isNegative() || remaining.isZero()) {
                throw new HttpTimeoutException("request timed out while queued for a connection");
            }
            exchange = client.sendAsync(toJdk(request, remaining), JdkByteCounter.HANDLER);
        } catch (HttpTimeoutException | RuntimeException e) { // queued too long, or refused, e.g. after close()
            try {
                completion.complete(Outcomes.ofThrowable(e), 0, e);
            } finally {
                permits.release();
            }
            return;
        }
        exchange.whenComplete((response, failure) -> {
            try {
                if (failure == null) {
                    completion.complete(Outcomes.ofResponse(response.statusCode(), response.body(),
                            request.expectedBodyBytes()), response.statusCode(), null);
                } else {
                    completion.complete(Outcomes.ofThrowable(failure), 0, failure);
                }
            } finally {
                permits.release();
            }
        });
    }

    @Override
    public void close() {
        closed = true;
        shutdown(client);
    }

    @Override
    public String libraryVersion() {
        return "java.net.http:" + Runtime.version();
    }

    @Override
    public Map<String, String> settings() {
        return settings;
    }

    @Override
    public String name() {
        return "jdk";
    }

    static HttpClient newClient(AdapterConfig config) {
        HttpClient.Builder builder = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(config.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER);
        if (config.trustAllCertificates() && config.protocol().tls()) {
            builder.sslContext(TrustAllCertificates.sslContext());
        }
        return builder.build();
    }

    static HttpRequest toJdk(Request request, Duration timeout) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(request.uri())
                .timeout(timeout)
                .header(AdapterSettings.ACCEPT_ENCODING, AdapterSettings.IDENTITY);
        if (request.hasBody()) {
            builder.header(AdapterSettings.CONTENT_TYPE, AdapterSettings.OCTET_STREAM)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(request.body()));
        }
        return builder.build();
    }

    static Map<String, String> settings(AdapterConfig config, String connectionLimit, String threading) {
        Map<String, String> s = AdapterSettings.common(config, connectionLimit,
                "HttpRequest.timeout, less time queued in the adapter; up to the response headers before JDK 26");
        s.put("threading", threading);
        s.put("retries", "client default: a refused connect and an idempotent request on a connection found closed"
                + " are retried (JVM-wide -Djdk.httpclient.disableRetryConnect)");
        return Collections.unmodifiableMap(s);
    }

    /** {@code shutdownNow} aborts what is in flight; then waits (bounded) for the client's threads. */
    static void shutdown(HttpClient client) {
        client.shutdownNow();
        try {
            client.awaitTermination(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
