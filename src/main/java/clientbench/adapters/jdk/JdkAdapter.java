package clientbench.adapters.jdk;

import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.AsyncPermits;
import clientbench.adapters.support.Http2Ramp;
import clientbench.adapters.support.OpenBodies;
import clientbench.adapters.support.PendingCount;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;

/**
 * The JDK's {@link java.net.http.HttpClient}, async, built by {@link JdkClients}. It has no connection limit, so a FIFO
 * queue here holds requests beyond maxConnections ({@link Http2Ramp}); the version is pinned and the connect retry off.
 * Docs: https://docs.oracle.com/en/java/javase/21/docs/api/java.net.http/java/net/http/HttpClient.html
 */
public final class JdkAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final HttpClient client;
    private final AsyncPermits permits;
    private final Http2Ramp ramp;
    private final OpenBodies leftOpen = new OpenBodies();
    /** Requests sent and not yet reported, which close() waits for. */
    private final PendingCount unreported = new PendingCount();
    private volatile boolean closed;

    public JdkAdapter(AdapterConfig config) {
        this.config = config;
        // The library's own limits: none, so no queue here either.
        this.permits = new AsyncPermits(AdapterSettings.adapterLimits(config) ? Http2Ramp.initialLimit(config) : Integer.MAX_VALUE);
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
        unreported.add();
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
            exchange = client.sendAsync(JdkClients.toJdk(request, remaining), JdkClients.body(request, leftOpen));
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
            unreported.done();
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
        leftOpen.closeAll();
        JdkClients.shutdown(client);
        unreported.awaitNone(Duration.ofSeconds(5));
    }

    @Override
    public String libraryVersion() {
        return JdkClients.libraryVersion();
    }

    @Override
    public Map<String, String> settings() {
        return JdkClients.settings(config, client, JdkClients.connectionLimit(config, AdapterSettings.adapterLimits(config)
                        ? "at most maxConnections exchanges at once; more wait in a queue in the adapter, without blocking"
                        + " the caller" : "none: the client has no limit, and the adapter adds none (the library's own)"),
                "sendAsync; the client's selector thread and default executor (a cached pool)");
    }

    @Override
    public String name() {
        return "jdk";
    }
}
