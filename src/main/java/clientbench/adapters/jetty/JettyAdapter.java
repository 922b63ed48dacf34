package clientbench.adapters.jetty;

import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.LibraryVersion;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import java.nio.ByteBuffer;
import java.util.Map;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;

/**
 * Jetty HttpClient 12, asynchronous ({@code Request.send(Response.CompleteListener)}).
 * Docs: https://jetty.org/docs/jetty/12.1/programming-guide/client/http.html
 *
 * <p>Settings that differ from the client's defaults:
 * <ul>
 *   <li>maxConnectionsPerDestination = maxConnections (default 64); requests beyond wait in the
 *       destination's queue, which holds maxRequestsQueuedPerDestination (default 1024, kept): past
 *       that Jetty fails the request with {@code RejectedExecutionException}, reported as {@code REJECTED};</li>
 *   <li>transport HTTP/1.1 only ({@code HttpClientTransportOverHTTP}, the default) for http1 and https1;
 *       HTTP/2 only ({@code HttpClientTransportOverHTTP2}) for h2c, by prior knowledge, and h2, with ALPN
 *       offering h2 alone. On HTTP/2 the pool is Jetty's multiplexed one: up to maxConnectionsPerDestination
 *       connections, each carrying as many streams as the server's SETTINGS_MAX_CONCURRENT_STREAMS allows;</li>
 *   <li>connect timeout from the config (default 5 s); a total timeout of requestTimeout on every
 *       request (default none; it covers queueing, connect and the whole body);</li>
 *   <li>followRedirects false (default true); cookie store {@code HttpCookieStore.Empty} (default an
 *       in-memory store); content decoders cleared after start (by default Jetty loads gzip and sends
 *       {@code Accept-Encoding: gzip}), and {@code Accept-Encoding: identity} sent explicitly;</li>
 *   <li>selectors = ioThreads when set (default 1);</li>
 *   <li>trust-all TLS without endpoint identification when asked.</li>
 * </ul>
 * Jetty does not retry. The body is counted in a content listener, never buffered. The client is built by
 * {@link JettyClients}.
 */
public final class JettyAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final HttpClient client;
    private final Map<String, String> settings;

    public JettyAdapter(AdapterConfig config) {
        this.config = config;
        this.settings = JettyClients.settings(config, "request listeners on the client's QueuedThreadPool; selector threads");
        this.client = JettyClients.newClient(config);
    }

    @Override
    public void send(Request request, Completion completion) {
        JettyClients.newRequest(client, config, request).send(new Response.Listener() {
            private long bytes;

            @Override
            public void onContent(Response response, ByteBuffer content) {
                bytes += content.remaining();
            }

            @Override
            public void onComplete(Result result) {
                int status = result.getResponse() == null ? 0 : result.getResponse().getStatus();
                if (result.isSucceeded()) {
                    completion.complete(Outcomes.ofResponse(request, status, bytes), status, bytes, null);
                } else {
                    completion.complete(JettyClients.outcomeOf(result.getFailure()), 0, result.getFailure());
                }
            }
        });
    }

    @Override
    public void close() {
        JettyClients.stop(client);
    }

    @Override
    public String libraryVersion() {
        return LibraryVersion.of(HttpClient.class, "org.eclipse.jetty", "jetty-client");
    }

    @Override
    public Map<String, String> settings() {
        return settings;
    }

    @Override
    public String name() {
        return "jetty";
    }
}
