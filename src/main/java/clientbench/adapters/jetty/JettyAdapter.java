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
 *   <li>maxConnectionsPerDestination = maxConnections (default 64) on HTTP/1.1, 1 on HTTP/2; requests
 *       beyond wait in the destination's queue;</li>
 *   <li>maxRequestsQueuedPerDestination unbounded (default 1,024, past which Jetty rejects): the harness
 *       bounds requests in flight itself, with a concurrency the adapter cannot know, and users who drive
 *       Jetty at that scale raise the limit (see {@link JettyClients#MAX_QUEUED});</li>
 *   <li>transport HTTP/1.1 only ({@code HttpClientTransportOverHTTP}, the default) for http1 and https1;
 *       HTTP/2 only ({@code HttpClientTransportOverHTTP2}) for h2c, by prior knowledge, and h2, with ALPN
 *       offering h2 alone. On HTTP/2 one connection carries as many streams as the server's
 *       SETTINGS_MAX_CONCURRENT_STREAMS allows (Jetty's multiplexed pool would open up to
 *       maxConnectionsPerDestination while the first has not had the server's SETTINGS yet);</li>
 *   <li>connect timeout from the config (default 5 s); a total timeout of requestTimeout on every
 *       request (default none; it covers queueing, connect and the whole body);</li>
 *   <li>followRedirects false (default true); cookie store {@code HttpCookieStore.Empty} (default an
 *       in-memory store); content decoders cleared after start (by default Jetty loads gzip and sends
 *       {@code Accept-Encoding: gzip}), and {@code Accept-Encoding: identity} sent explicitly;</li>
 *   <li>selectors = ioThreads when set (default 1), read back from the started client; the connector closes, as
 *       the client stops, the channels Jetty would leave open ({@link ClosingClientConnector});</li>
 *   <li>trust-all TLS without endpoint identification when asked.</li>
 * </ul>
 * Jetty does not retry. The body is counted in a content listener, never buffered. The client is built by
 * {@link JettyClients}.
 */
public final class JettyAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final HttpClient client;

    public JettyAdapter(AdapterConfig config) {
        this.config = config;
        this.client = JettyClients.newClient(config);
    }

    @Override
    public void send(Request request, Completion completion) {
        JettyClients.newRequest(client, config.requestTimeout(), request).send(new Response.Listener() {
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
        return JettyClients.settings(config, client, "request listeners on the client's QueuedThreadPool; selector threads");
    }

    @Override
    public String name() {
        return "jetty";
    }
}
