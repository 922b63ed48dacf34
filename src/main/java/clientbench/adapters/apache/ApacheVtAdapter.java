package clientbench.adapters.apache;

import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.BodyBuffers;
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
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.io.CloseMode;

/**
 * Apache HttpClient 5 classic (blocking, {@code HttpClients.custom()}), one virtual thread per request.
 * Docs: https://hc.apache.org/httpcomponents-client-5.6.x/
 *
 * <p>Settings that differ from the client's defaults (built by {@link ApacheClients}):
 * <ul>
 *   <li>{@code PoolingHttpClientConnectionManager} max total and max per route = maxConnections
 *       (default 25 and 5); virtual threads beyond wait for a lease in the pool;</li>
 *   <li>HTTP/1.1: the classic client speaks nothing else, so h2c and h2 are refused at construction;</li>
 *   <li>connect timeout from the config (default 3 min);</li>
 *   <li>request timeout: the client has no whole-exchange timeout, so the request is cancelled (closing its
 *       connection) when what is left of the request timeout passes, reported as {@code TIMEOUT};</li>
 *   <li>redirects, cookies, automatic retries and content compression disabled (all on by default);</li>
 *   <li>{@code Accept-Encoding: identity} sent explicitly; trust-all TLS with {@code NoopHostnameVerifier} when asked.</li>
 * </ul>
 * The body is read inside the response handler, as the classic API's users do, into a reused buffer
 * ({@link BodyBuffers}; {@code transferTo} would allocate 16 KiB per request). Virtual threads come from
 * {@link VirtualThreadExchanges}, named {@code apache-vt-N}.
 */
public final class ApacheVtAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final CloseableHttpClient client;
    private final BodyBuffers buffers = new BodyBuffers();
    private final VirtualThreadExchanges exchanges;

    public ApacheVtAdapter(AdapterConfig config) {
        AdapterSettings.refuseHttp2(name(), config,
                "Apache HttpClient 5 classic (blocking) has no HTTP/2 support; only the async client (apache) has");
        this.config = config;
        this.client = ApacheClients.newClassicClient(config);
        this.exchanges = new VirtualThreadExchanges(name(), config, null, true, ApacheClients::outcomeOf);
    }

    @Override
    public void send(Request request, Completion completion) {
        exchanges.send(request, completion, call -> {
            HttpUriRequestBase r = new HttpUriRequestBase(request.method(), request.uri());
            request.headers().forEach(h -> r.addHeader(h.name(), h.value()));
            if (request.hasBody()) {
                r.setEntity(new ByteArrayEntity(request.body(), ContentType.parse(request.contentType())));
            }
            call.onDeadline(r::cancel);
            return client.execute(r, response -> Answer.of(response.getCode(),
                    response.getEntity() == null ? 0 : buffers.drain(response.getEntity().getContent())));
        });
    }

    /**
     * The requests' virtual threads first, then the client. The other order leaked a connection when a send raced
     * with close() (AdapterContractTest, once in a CI run): the pool's {@code close} discards the connections of
     * its leased entries, but an entry still connecting gets its connection after that, and {@code
     * StrictConnPool.release} on a closed pool returns without closing it. Interrupted, a virtual thread blocked
     * in socket I/O closes its socket; one that finished returns its connection to the open pool, which the
     * client's close then closes.
     */
    @Override
    public void close() {
        exchanges.close();
        client.close(CloseMode.IMMEDIATE);
    }

    @Override
    public String libraryVersion() {
        return ApacheClients.libraryVersion();
    }

    @Override
    public Map<String, String> settings() {
        Map<String, String> s = ApacheClients.settings(config,
                "pool max total = max per route = maxConnections; more wait for a lease",
                VirtualThreads.THREADING + "; one deadline thread of the adapter");
        s.put("body", "read in the response handler into a reused 16 KiB buffer");
        AdapterSettings.tcpNoDelay(s, SocketConfig.DEFAULT.isTcpNoDelay(),
                "SocketConfig.DEFAULT.isTcpNoDelay(), the socket configuration of the client's connection manager");
        AdapterSettings.ioThreads(s, 0, "none: blocking I/O on each request's virtual thread");
        return Collections.unmodifiableMap(s);
    }

    @Override
    public String name() {
        return "apache-vt";
    }
}
