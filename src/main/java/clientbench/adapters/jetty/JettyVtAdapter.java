package clientbench.adapters.jetty;

import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.LibraryVersion;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import clientbench.adapters.support.VirtualThreads;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Response;

/**
 * Jetty HttpClient 12 driven from virtual threads: each request's virtual thread sends with an
 * {@code InputStreamResponseListener} and blocks reading the body stream to its end, counting bytes
 * (the blocking {@code Request.send()} would buffer the body, and refuses more than 2 MiB).
 * Docs: https://jetty.org/docs/jetty/12.1/programming-guide/client/http.html
 *
 * <p>Settings that differ from the client's defaults are those of {@link JettyAdapter}, the transport
 * (HTTP/1.1 or HTTP/2) among them: the client enforces the connection limit and the total request
 * timeout itself, as there. Virtual threads come from a per-adapter thread-per-task executor named
 * {@code jetty-vt-N}; Jetty's own threads still do the I/O and hand the content over to them.
 */
public final class JettyVtAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final HttpClient client;
    private final ExecutorService threads;
    private final Map<String, String> settings;

    public JettyVtAdapter(AdapterConfig config) {
        this.config = config;
        this.settings = JettyClients.settings(config, VirtualThreads.THREADING + "; Jetty's pool and selectors do the I/O");
        this.client = JettyClients.newClient(config);
        this.threads = VirtualThreads.perRequest(name());
    }

    @Override
    public void send(Request request, Completion completion) {
        VirtualThreads.start(threads, completion, () -> exchange(request, completion));
    }

    /** Runs on the request's virtual thread. */
    private void exchange(Request request, Completion completion) {
        Outcome outcome;
        int status = 0;
        long bodyBytes = -1;
        Throwable failure = null;
        InputStreamResponseListener listener = new InputStreamResponseListener();
        try {
            JettyClients.newRequest(client, config, request).send(listener);
            // The request's own total timeout ends the exchange first; this bound is only a backstop.
            Response response = listener.get(config.requestTimeout().toMillis() + 1_000, TimeUnit.MILLISECONDS);
            status = response.getStatus();
            try (InputStream body = listener.getInputStream()) {
                bodyBytes = body.transferTo(OutputStream.nullOutputStream());
                outcome = Outcomes.ofResponse(request, status, bodyBytes);
            }
        } catch (Exception e) { // ExecutionException or IOException around Jetty's failure
            outcome = JettyClients.outcomeOf(e);
            failure = e;
        }
        completion.complete(outcome, status, bodyBytes, failure);
    }

    @Override
    public void close() {
        JettyClients.stop(client);
        VirtualThreads.shutdown(threads);
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
        return "jetty-vt";
    }
}
