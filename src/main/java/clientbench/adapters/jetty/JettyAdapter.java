package clientbench.adapters.jetty;

import clientbench.adapters.support.OpenBodies;
import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;

/**
 * Jetty HttpClient 12, async. Docs: https://jetty.org/docs/jetty/12.1/programming-guide/client/http.html
 * Off its defaults: maxConnections per destination (HTTP/2: 1), queue unbounded ({@link JettyClients#MAX_QUEUED}); one
 * transport; total timeout = requestTimeout; no redirects, cookies, decoders; {@link ClosingClientConnector} on stop.
 */
public final class JettyAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final HttpClient client;
    private final OpenBodies leftOpen = new OpenBodies();

    public JettyAdapter(AdapterConfig config) {
        this.config = config;
        this.client = JettyClients.newClient(config);
    }

    @Override
    public void send(Request request, Completion completion) {
        if (request.leavesBodyOpen()) {
            sendLeavingBodyOpen(request, completion);
            return;
        }
        // A body the caller leaves unread: no listener reads its content, and Jetty reads the rest and discards it.
        boolean unread = request.abandonsBody();
        JettyClients.newRequest(client, config.requestTimeout(), request).send(new Response.Listener() {
            private long bytes = unread ? -1 : 0;

            @Override
            public void onContent(Response response, ByteBuffer content) {
                if (!unread) {
                    bytes += content.remaining();
                }
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

    /** The body taken as an InputStreamResponseListener's stream, never read nor closed: Jetty holds the exchange. */
    private void sendLeavingBodyOpen(Request request, Completion completion) {
        AtomicBoolean reported = new AtomicBoolean();
        InputStreamResponseListener listener = new InputStreamResponseListener() {
            @Override
            public void onHeaders(Response response) {
                super.onHeaders(response);
                if (reported.compareAndSet(false, true)) {
                    int status = response.getStatus();
                    completion.complete(Outcomes.ofResponse(request, status, -1), status, -1, null);
                }
            }

            @Override
            public void onComplete(Result result) {
                super.onComplete(result);
                if (result.isFailed() && reported.compareAndSet(false, true)) { // failed before its head
                    completion.complete(JettyClients.outcomeOf(result.getFailure()), 0, result.getFailure());
                }
            }
        };
        leftOpen.hold(listener.getInputStream(), java.io.InputStream::close);
        JettyClients.newRequest(client, config.requestTimeout(), request).send(listener);
    }

    @Override
    public void close() {
        leftOpen.closeAll();
        JettyClients.stop(client);
    }

    @Override
    public String libraryVersion() {
        return JettyClients.libraryVersion();
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
