package clientbench.adapters.jdk;

import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import clientbench.adapters.support.Http2Ramp;
import clientbench.adapters.support.VirtualThreads;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The JDK's {@link java.net.http.HttpClient} through its blocking {@code send}, one virtual thread per
 * request. Docs: https://docs.oracle.com/en/java/javase/21/docs/api/java.net.http/java/net/http/HttpClient.html
 *
 * <p>Settings that differ from the client's defaults are those of {@link JdkAdapter} (HTTP version, connect
 * timeout, per-request timeout, {@code Accept-Encoding: identity}, trust-all TLS when asked), except the
 * connection limit: here each virtual thread waits for one of {@code maxConnections} permits of a fair
 * semaphore, for at most the request timeout, and the request's own timeout is what is left of it. On
 * HTTP/2 there is one permit until the first HTTP/2 response, then 100 ({@link Http2Ramp}).
 * The client cannot do h2c by prior knowledge: on h2c the first request of each connection is an HTTP/1.1
 * Upgrade (see {@link JdkClients}).
 * Virtual threads come from a per-adapter thread-per-task executor named {@code jdk-vt-N}; they run on
 * the JVM's shared virtual-thread scheduler.
 */
public final class JdkVtAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final HttpClient client;
    private final Semaphore permits;
    private final Http2Ramp ramp;
    private final ExecutorService threads;
    private final Map<String, String> settings;

    public JdkVtAdapter(AdapterConfig config) {
        this.config = config;
        this.permits = new Semaphore(Http2Ramp.initialLimit(config), true);
        this.ramp = new Http2Ramp(() -> permits.release(Http2Ramp.STREAMS - Http2Ramp.initialLimit(config)));
        this.settings = JdkClients.settings(config, JdkClients.connectionLimit(config,
                        "at most maxConnections exchanges at once; more wait on a fair semaphore in their virtual thread"),
                VirtualThreads.THREADING);
        this.client = JdkClients.newClient(config);
        this.threads = VirtualThreads.perRequest(name());
    }

    @Override
    public void send(Request request, Completion completion) {
        long queuedAtNanos = System.nanoTime();
        VirtualThreads.start(threads, completion, () -> exchange(request, completion, queuedAtNanos));
    }

    /** Runs on the request's virtual thread. */
    private void exchange(Request request, Completion completion, long queuedAtNanos) {
        Outcome outcome;
        int status = 0;
        long bodyBytes = -1;
        Throwable failure = null;
        try {
            long remaining = config.requestTimeout().toNanos() - (System.nanoTime() - queuedAtNanos);
            if (!permits.tryAcquire(remaining, TimeUnit.NANOSECONDS)) {
                throw new HttpTimeoutException("request timed out while queued for a connection");
            }
            try {
                remaining = config.requestTimeout().toNanos() - (System.nanoTime() - queuedAtNanos);
                Duration timeout = Duration.ofNanos(Math.max(1, remaining));
                HttpResponse<Long> response = client.send(JdkClients.toJdk(request, timeout), JdkClients.COUNT_BODY);
                status = response.statusCode();
                failure = JdkClients.wrongVersion(config, response);
                ramp.onResponse(response.version() == HttpClient.Version.HTTP_2);
                outcome = failure != null ? Outcome.OTHER
                        : Outcomes.ofResponse(request, status, response.body());
                bodyBytes = response.body();
            } finally {
                permits.release();
            }
        } catch (Exception e) {
            outcome = Outcomes.ofThrowable(e);
            failure = e;
        }
        completion.complete(outcome, status, bodyBytes, failure);
    }

    @Override
    public void close() {
        JdkClients.shutdown(client);
        VirtualThreads.shutdown(threads);
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
        return "jdk-vt";
    }
}
