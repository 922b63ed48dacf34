package clientbench.adapters.reactor;

import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.OpenBodies;
import clientbench.adapters.support.VirtualThreadExchanges;
import clientbench.adapters.support.VirtualThreadExchanges.Answer;
import clientbench.adapters.support.VirtualThreads;
import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Request;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import reactor.netty.http.client.HttpClient;

/**
 * Reactor Netty 1.3 {@code HttpClient} blocked on per request ({@code block()}), one virtual thread each: the engine of
 * the reactor adapter, its {@code responseTimeout} the request timeout in every tuning, as Spring's
 * {@code ReactorClientHttpRequestFactory} sets it; the bare client of restclient-reactor.
 * Docs: docs/reference/clients.md#reactor
 */
public final class ReactorVtAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final ReactorEngine engine;
    private final HttpClient client;
    private final VirtualThreadExchanges exchanges;
    private final OpenBodies leftOpen = new OpenBodies();

    public ReactorVtAdapter(AdapterConfig config) {
        this.config = config;
        this.engine = new ReactorEngine(config, name(), true);
        this.client = engine.client();
        this.exchanges = new VirtualThreadExchanges(name(), config, null, false, ReactorEngine::outcomeOf);
    }

    @Override
    public void send(Request request, Completion completion) {
        exchanges.send(request, completion, call -> {
            ReactorRequests.Received r = ReactorRequests.exchange(client, request, leftOpen).block();
            boolean http2 = r.majorVersion() == 2;
            return new Answer(r.status(), r.bytes(), http2 == AdapterSettings.http2(config) ? null
                    : AdapterSettings.wrongVersion(config, "HTTP/" + r.majorVersion()));
        });
    }

    /** The engine first, as restclient-reactor closes it: its connections' end wakes the threads blocked on them. */
    @Override
    public void close() {
        leftOpen.closeAll();
        engine.close();
        exchanges.close();
    }

    @Override
    public String libraryVersion() {
        return ReactorEngine.libraryVersion();
    }

    @Override
    public Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>(engine.settings());
        s.put("threading", VirtualThreads.THREADING + "; each blocks on Mono.block(), the engine's event loops do the I/O");
        return Collections.unmodifiableMap(s);
    }

    @Override
    public String name() {
        return "reactor-vt";
    }
}
