package clientbench.adapters.apache;

import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.BodyBuffers;
import clientbench.adapters.support.OpenBodies;
import clientbench.adapters.support.VirtualThreadExchanges;
import clientbench.adapters.support.VirtualThreadExchanges.Answer;
import clientbench.adapters.support.VirtualThreads;
import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Request;
import java.util.Collections;
import java.util.Map;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.io.CloseMode;

/**
 * Apache HttpClient 5 classic (blocking), one virtual thread per request. Settings as {@link ApacheAdapter}, HTTP/1.1
 * only; the request is cancelled when its time is up (with the library's own timeout, its responseTimeout ends it);
 * bodies read into {@link BodyBuffers}. Docs:
 * https://hc.apache.org/httpcomponents-client-5.6.x/
 */
public final class ApacheVtAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final CloseableHttpClient client;
    private final PoolingHttpClientConnectionManager pool;
    private final BodyBuffers buffers = new BodyBuffers();
    private final VirtualThreadExchanges exchanges;
    private final OpenBodies leftOpen = new OpenBodies();

    public ApacheVtAdapter(AdapterConfig config) {
        AdapterSettings.refuseHttp2(name(), config,
                "Apache HttpClient 5 classic (blocking) has no HTTP/2 support; only the async client (apache) has");
        this.config = config;
        this.pool = ApacheClients.classicPool(config);
        this.client = ApacheClients.newClassicClient(config, pool);
        this.exchanges = new VirtualThreadExchanges(name(), config, null, !config.tuning().libraryTimeout(),
                ApacheClients::outcomeOf);
    }

    @Override
    public void send(Request request, Completion completion) {
        exchanges.send(request, completion, call -> {
            HttpUriRequestBase r = new HttpUriRequestBase(request.method(), request.uri());
            request.headers().forEach(h -> r.addHeader(h.name(), h.value()));
            if (request.hasBody()) {
                r.setEntity(new ByteArrayEntity(request.body(), ContentType.parse(request.contentType())));
            }
            if (!config.tuning().libraryTimeout()) {
                call.onDeadline(r::cancel);
            }
            if (request.leavesBodyOpen()) { // the CloseableHttpResponse never closed: it keeps its pool slot
                var response = client.execute(r);
                leftOpen.hold(response, open -> open.close());
                return Answer.of(response.getCode(), -1);
            }
            if (request.abandonsBody()) { // the response closed unread, as its users write it without a handler
                try (var response = client.execute(r)) {
                    return Answer.of(response.getCode(), -1);
                }
            }
            return client.execute(r, response -> Answer.of(response.getCode(),
                    response.getEntity() == null ? 0 : buffers.drain(response.getEntity().getContent())));
        });
    }

    /**
     * The virtual threads first, then the client: the pool's close misses an entry still connecting, and a closed
     * pool's release leaves its connection open. Interrupted, a thread in socket I/O closes its socket; a finished one
     * returns its connection to the pool, which the client's close then closes.
     */
    @Override
    public void close() {
        exchanges.close();
        leftOpen.closeAll();
        client.close(CloseMode.IMMEDIATE);
    }

    @Override
    public String libraryVersion() {
        return ApacheClients.libraryVersion();
    }

    @Override
    public Map<String, String> settings() {
        Map<String, String> s = ApacheClients.classicSettings(config, pool,
                VirtualThreads.THREADING + (config.tuning().libraryTimeout() ? "" : "; one deadline thread of the adapter"));
        s.put("body", "read in the response handler into a reused 16 KiB buffer");
        return Collections.unmodifiableMap(s);
    }

    @Override
    public String name() {
        return "apache-vt";
    }
}
