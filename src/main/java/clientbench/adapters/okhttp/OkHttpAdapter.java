package clientbench.adapters.okhttp;

import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import clientbench.adapters.support.Http2Ramp;
import clientbench.adapters.support.OpenBodies;
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
 * OkHttp 5, async ({@code Call.enqueue}). Off its defaults: protocols pinned (h2 offers h2 and http/1.1, as OkHttp
 * refuses HTTP_2 alone); dispatcher limits = maxConnections ({@link Http2Ramp}); its own TaskRunner; callTimeout =
 * requestTimeout; no retries or redirects; TCP_NODELAY on ({@link OpenSockets}). Docs: https://square.github.io/okhttp/
 */
public final class OkHttpAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final OkHttpClients.Owned owned;
    private final OkHttpClient client;
    private final Http2Ramp ramp;
    private final OpenBodies leftOpen = new OpenBodies();
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
                if (request.leavesBodyOpen()) { // the Response neither read nor closed: its connection stays the call's
                    leftOpen.hold(response, Response::close);
                    Outcome head = failure != null ? Outcome.OTHER : Outcomes.ofResponse(request, response.code(), -1);
                    completion.complete(head, response.code(), -1, failure);
                    return;
                }
                try (response) { // closed unread when the caller abandons the body: OkHttp decides about the connection
                    bytes = request.abandonsBody() ? -1 : response.body().source().readAll(Okio.blackhole());
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
        leftOpen.closeAll();
        owned.close();
    }

    @Override
    public String libraryVersion() {
        return OkHttpClients.libraryVersion();
    }

    @Override
    public Map<String, String> settings() {
        return owned.settings(config, config.tuning().libraryLimits()
                        ? "the Dispatcher's own maxRequests and maxRequestsPerHost (see dispatcherLimits); more wait in its queue"
                        : "Dispatcher maxRequests = maxRequestsPerHost = maxConnections; more wait in the dispatcher's queue",
                "enqueue; the dispatcher's cached pool (okhttp-dispatcher-N)");
    }

    @Override
    public String name() {
        return "okhttp";
    }
}
