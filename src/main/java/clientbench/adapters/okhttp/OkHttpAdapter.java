package clientbench.adapters.okhttp;

import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import clientbench.adapters.support.Http2Ramp;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import okio.Okio;

/**
 * OkHttp 5, asynchronous ({@code Call.enqueue}). Docs: https://square.github.io/okhttp/
 *
 * <p>Settings that differ from the client's defaults (built by {@link OkHttpClients}):
 * <ul>
 *   <li>protocols {@code [HTTP_1_1]} for http1 and https1 (default {@code [HTTP_2, HTTP_1_1]}),
 *       {@code [H2_PRIOR_KNOWLEDGE]} for h2c, the default {@code [HTTP_2, HTTP_1_1]} for h2 (OkHttp refuses
 *       HTTP_2 alone, so ALPN offers both; a response that came on HTTP/1.1 is reported as {@code OTHER});</li>
 *   <li>{@code Dispatcher} maxRequests and maxRequestsPerHost = maxConnections (default 64 and 5), on an
 *       executor of this adapter's own (same shape as the default: a cached pool), so close() can end it;
 *       calls beyond the limit wait in the dispatcher's queue. On HTTP/2 both are 1 until the first HTTP/2
 *       response, then 100, the streams of one connection ({@link Http2Ramp}); every call in flight holds
 *       a dispatcher thread all the same;</li>
 *   <li>{@code ConnectionPool} keeping up to maxConnections idle connections (default 5), 5 min keep-alive;</li>
 *   <li>its own {@code TaskRunner} (default: the JVM-wide {@code TaskRunner.INSTANCE}, whose daemon threads
 *       idle out only after 60 s): see {@link OkHttpClients} for how, and the one thread left;</li>
 *   <li>connectTimeout from the config (default 10 s); callTimeout = requestTimeout (default none);
 *       read and write timeouts = requestTimeout (default 10 s), so only the call timeout fires;</li>
 *   <li>retryOnConnectionFailure false (default true); followRedirects and followSslRedirects false
 *       (default true); cookies: {@code CookieJar.NO_COOKIES} is already the default;</li>
 *   <li>{@code Accept-Encoding: identity} sent explicitly: without it OkHttp asks for gzip and
 *       decompresses transparently;</li>
 *   <li>trust-all TLS and host names when the config asks for it;</li>
 *   <li>TCP_NODELAY on, set by the adapter's socket factory ({@link OpenSockets}; OkHttp leaves Nagle's
 *       algorithm on and has no setting for it), as every other client runs; read back from the open sockets.</li>
 * </ul>
 * The OkHttp request is built on every send, as OkHttp's users write it (its URL string parsed each time).
 * The call timeout starts when the dispatcher runs the call, so time queued in the dispatcher is not
 * part of it. OkHttp reads the body with blocking I/O on the dispatcher's threads ("fake async").
 */
public final class OkHttpAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final OkHttpClients.Owned owned;
    private final OkHttpClient client;
    private final Http2Ramp ramp;
    private volatile boolean closed;

    public OkHttpAdapter(AdapterConfig config) {
        this.config = config;
        ThreadPoolExecutor dispatcherThreads = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
                new SynchronousQueue<>(), Thread.ofPlatform().name("okhttp-dispatcher-", 0).daemon().factory());
        this.owned = OkHttpClients.create(config, dispatcherThreads);
        this.client = owned.client();
        this.ramp = new Http2Ramp(() -> {
            client.dispatcher().setMaxRequests(Http2Ramp.STREAMS);
            client.dispatcher().setMaxRequestsPerHost(Http2Ramp.STREAMS);
        });
    }

    @Override
    public void send(Request request, Completion completion) {
        if (closed) {
            completion.complete(Outcome.REJECTED, 0, new RejectedExecutionException(name() + " is closed"));
            return;
        }
        client.newCall(owned.toOkHttp(request)).enqueue(new Callback() {
            @Override
            public void onFailure(Call call, IOException e) {
                completion.complete(OkHttpClients.outcomeOf(e), 0, e);
            }

            @Override
            public void onResponse(Call call, Response response) {
                Outcome outcome;
                long bytes = -1;
                Throwable failure = OkHttpClients.wrongVersion(config, response);
                ramp.onResponse(OkHttpClients.isHttp2(response));
                try (response) {
                    bytes = response.body().source().readAll(Okio.blackhole());
                    outcome = failure != null ? Outcome.OTHER
                            : Outcomes.ofResponse(request, response.code(), bytes);
                } catch (IOException e) {
                    outcome = OkHttpClients.outcomeOf(e);
                    failure = e;
                }
                completion.complete(outcome, response.code(), bytes, failure);
            }
        });
    }

    @Override
    public void close() {
        closed = true;
        owned.close();
    }

    @Override
    public String libraryVersion() {
        return OkHttpClients.libraryVersion();
    }

    @Override
    public Map<String, String> settings() {
        return owned.settings(config,
                "Dispatcher maxRequests = maxRequestsPerHost = maxConnections; more wait in the dispatcher's queue",
                "enqueue; the dispatcher's cached pool (okhttp-dispatcher-N)");
    }

    @Override
    public String name() {
        return "okhttp";
    }
}
