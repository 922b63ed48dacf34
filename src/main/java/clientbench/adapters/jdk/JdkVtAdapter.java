package clientbench.adapters.jdk;

import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.Http2Ramp;
import clientbench.adapters.support.OpenBodies;
import clientbench.adapters.support.VirtualThreadExchanges;
import clientbench.adapters.support.VirtualThreadExchanges.Answer;
import clientbench.adapters.support.VirtualThreads;
import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.Semaphore;

/**
 * The JDK's {@link java.net.http.HttpClient} through blocking {@code send}, one virtual thread per request; as
 * {@link JdkAdapter}, but each thread waits within the timeout for one of maxConnections permits ({@link Http2Ramp}).
 * Docs: https://docs.oracle.com/en/java/javase/21/docs/api/java.net.http/java/net/http/HttpClient.html
 */
public final class JdkVtAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final HttpClient client;
    private final Http2Ramp ramp;
    private final OpenBodies leftOpen = new OpenBodies();
    private final VirtualThreadExchanges exchanges;

    public JdkVtAdapter(AdapterConfig config) {
        this.config = config;
        Semaphore permits = AdapterSettings.adapterLimits(config) ? new Semaphore(Http2Ramp.initialLimit(config), true) : null;
        this.ramp = new Http2Ramp(() -> permits.release(Http2Ramp.STREAMS - Http2Ramp.initialLimit(config)));
        this.client = JdkClients.newClient(config);
        this.exchanges = new VirtualThreadExchanges(name(), config, permits, false, Outcomes::ofThrowable);
    }

    @Override
    public void send(Request request, Completion completion) {
        exchanges.send(request, completion, call -> {
            HttpResponse<Long> response = client.send(JdkClients.toJdk(request, call.timeLeft()),
                    JdkClients.body(request, leftOpen));
            ramp.onResponse(response.version() == HttpClient.Version.HTTP_2);
            return new Answer(response.statusCode(), response.body(), JdkClients.wrongVersion(config, response));
        });
    }

    @Override
    public void close() {
        leftOpen.closeAll();
        JdkClients.shutdown(client);
        exchanges.close();
    }

    @Override
    public String libraryVersion() {
        return JdkClients.libraryVersion();
    }

    @Override
    public Map<String, String> settings() {
        return JdkClients.settings(config, client, JdkClients.connectionLimit(config, AdapterSettings.adapterLimits(config)
                        ? "at most maxConnections exchanges at once; more wait on a fair semaphore in their virtual thread"
                        : "none: the client has no limit, and the adapter adds none (the library's own)"),
                VirtualThreads.THREADING);
    }

    @Override
    public String name() {
        return "jdk-vt";
    }
}
