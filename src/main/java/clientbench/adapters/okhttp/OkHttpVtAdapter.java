package clientbench.adapters.okhttp;

import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import clientbench.adapters.support.Http2Ramp;
import clientbench.adapters.support.VirtualThreads;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import okio.Okio;

/**
 * OkHttp 5 through its blocking {@code Call.execute}, one virtual thread per request.
 * Docs: https://square.github.io/okhttp/
 *
 * <p>Settings that differ from the client's defaults are those of {@link OkHttpAdapter} (built by
 * {@link OkHttpClients}), except the connection limit: synchronous calls bypass the dispatcher's limits
 * and OkHttp's pool caps only idle connections, so each virtual thread first waits for one of
 * {@code maxConnections} permits of a fair semaphore. The call timeout is what is left of the request
 * timeout after that wait, so it covers the whole exchange. Virtual threads come from a per-adapter
 * thread-per-task executor named {@code okhttp-vt-N}. On HTTP/2 there is one permit until the first
 * HTTP/2 response, then 100, the streams of one connection ({@link Http2Ramp}).
 */
public final class OkHttpVtAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final OkHttpClients.Owned owned;
    private final OkHttpClient client;
    private final Semaphore permits;
    private final Http2Ramp ramp;
    private final ExecutorService threads;
    private final Map<String, String> settings;

    public OkHttpVtAdapter(AdapterConfig config) {
        this.config = config;
        this.permits = new Semaphore(Http2Ramp.initialLimit(config), true);
        this.ramp = new Http2Ramp(() -> permits.release(Http2Ramp.STREAMS - Http2Ramp.initialLimit(config)));
        this.settings = OkHttpClients.settings(config,
                "at most maxConnections calls at once; more wait on a fair semaphore in their virtual thread",
                VirtualThreads.THREADING);
        // Synchronous calls never use the dispatcher's executor; it is only there to be shut down.
        this.owned = OkHttpClients.create(config, Executors.newSingleThreadExecutor());
        this.client = owned.client();
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
                completion.complete(Outcome.TIMEOUT, 0,
                        new InterruptedIOException("timed out while queued for a connection"));
                return;
            }
            try {
                Call call = client.newCall(owned.toOkHttp(request));
                remaining = config.requestTimeout().toNanos() - (System.nanoTime() - queuedAtNanos);
                call.timeout().timeout(Math.max(1, remaining), TimeUnit.NANOSECONDS);
                try (Response response = call.execute()) {
                    status = response.code();
                    failure = OkHttpClients.wrongVersion(config, response);
                    ramp.onResponse(OkHttpClients.isHttp2(response));
                    bodyBytes = response.body().source().readAll(Okio.blackhole());
                    outcome = failure != null ? Outcome.OTHER
                            : Outcomes.ofResponse(request, status, bodyBytes);
                }
            } finally {
                permits.release();
            }
        } catch (IOException e) {
            outcome = OkHttpClients.outcomeOf(e);
            failure = e;
        } catch (Exception e) {
            outcome = Outcomes.ofThrowable(e);
            failure = e;
        }
        completion.complete(outcome, status, bodyBytes, failure);
    }

    @Override
    public void close() {
        owned.close();
        VirtualThreads.shutdown(threads);
    }

    @Override
    public String libraryVersion() {
        return OkHttpClients.libraryVersion();
    }

    @Override
    public Map<String, String> settings() {
        return settings;
    }

    @Override
    public String name() {
        return "okhttp-vt";
    }
}
