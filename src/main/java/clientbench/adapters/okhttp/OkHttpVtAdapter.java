package clientbench.adapters.okhttp;

import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.Http2Ramp;
import clientbench.adapters.support.OpenBodies;
import clientbench.adapters.support.VirtualThreadExchanges;
import clientbench.adapters.support.VirtualThreadExchanges.Answer;
import clientbench.adapters.support.VirtualThreads;
import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Request;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import okio.Okio;

/**
 * OkHttp 5 through its blocking {@code Call.execute}, one virtual thread per request. As {@link OkHttpAdapter}, but
 * calls bypass the dispatcher's limits, so each thread waits for one of maxConnections fair permits
 * ({@link Http2Ramp}); the call timeout is what is left. Docs: https://square.github.io/okhttp/
 */
public final class OkHttpVtAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final OkHttpClients.Owned owned;
    private final OkHttpClient client;
    private final Http2Ramp ramp;
    private final VirtualThreadExchanges exchanges;
    private final OpenBodies leftOpen = new OpenBodies();

    public OkHttpVtAdapter(AdapterConfig config) {
        this.config = config;
        Semaphore permits = AdapterSettings.adapterLimits(config) ? new Semaphore(Http2Ramp.initialLimit(config), true) : null;
        this.ramp = new Http2Ramp(() -> permits.release(Http2Ramp.STREAMS - Http2Ramp.initialLimit(config)));
        // Synchronous calls never use the dispatcher's executor; it is only there to be shut down.
        this.owned = OkHttpClients.create(config, Executors.newSingleThreadExecutor());
        this.client = owned.client();
        this.exchanges = new VirtualThreadExchanges(name(), config, permits, false, OkHttpClients::outcomeOf);
    }

    @Override
    public void send(Request request, Completion completion) {
        exchanges.send(request, completion, x -> {
            Call call = client.newCall(owned.toOkHttp(request));
            call.timeout().timeout(x.timeLeft().toNanos(), TimeUnit.NANOSECONDS);
            if (request.leavesBodyOpen()) { // the Response neither read nor closed: its connection stays the call's
                Response response = call.execute();
                leftOpen.hold(response, Response::close);
                ramp.onResponse(OkHttpClients.isHttp2(response));
                return new Answer(response.code(), -1, OkHttpClients.wrongVersion(config, response));
            }
            try (Response response = call.execute()) {
                ramp.onResponse(OkHttpClients.isHttp2(response));
                return new Answer(response.code(), request.abandonsBody() ? -1 : response.body().source().readAll(Okio.blackhole()),
                        OkHttpClients.wrongVersion(config, response));
            }
        });
    }

    @Override
    public void close() {
        leftOpen.closeAll();
        owned.close();
        exchanges.close();
    }

    @Override
    public String libraryVersion() {
        return OkHttpClients.libraryVersion();
    }

    @Override
    public Map<String, String> settings() {
        return owned.settings(config, AdapterSettings.adapterLimits(config)
                        ? "at most maxConnections calls at once; more wait on a fair semaphore in their virtual thread"
                        : "none: execute() bypasses the dispatcher, and the adapter adds no limit (the library's own)",
                VirtualThreads.THREADING);
    }

    @Override
    public String name() {
        return "okhttp-vt";
    }
}
