package clientbench.adapters.jetty;

import clientbench.adapters.support.BodyBuffers;
import clientbench.adapters.support.VirtualThreadExchanges;
import clientbench.adapters.support.VirtualThreadExchanges.Answer;
import clientbench.adapters.support.VirtualThreads;
import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.LibraryVersion;
import clientbench.api.Request;
import java.io.InputStream;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Response;

/**
 * Jetty HttpClient 12 driven from virtual threads: each request's virtual thread sends with an
 * {@code InputStreamResponseListener}, Jetty's listener for blocking readers, and reads the body stream to
 * its end, counting bytes (the blocking {@code Request.send()} would buffer the body, and refuses more than
 * 2 MiB). Docs: https://jetty.org/docs/jetty/12.1/programming-guide/client/http.html
 *
 * <p>Settings that differ from the client's defaults are those of {@link JettyAdapter}, the transport
 * (HTTP/1.1 or HTTP/2) among them: the client enforces the connection limit and the total request timeout
 * itself, as there, the timeout being what is left of the request timeout when the virtual thread sends.
 * The body is read into a reused buffer ({@link BodyBuffers}; {@code transferTo} would allocate 16 KiB per
 * request). Virtual threads come from {@link VirtualThreadExchanges}, named {@code jetty-vt-N}; Jetty's
 * own threads still do the I/O and hand the content over to them.
 */
public final class JettyVtAdapter implements HttpClientAdapter {

    /** Past Jetty's own total timeout, which ends the exchange first: only a backstop for the wait on the head. */
    private static final long BACKSTOP_MILLIS = 1_000;

    private final AdapterConfig config;
    private final HttpClient client;
    private final BodyBuffers buffers = new BodyBuffers();
    private final VirtualThreadExchanges exchanges;

    public JettyVtAdapter(AdapterConfig config) {
        this.config = config;
        this.client = JettyClients.newClient(config);
        this.exchanges = new VirtualThreadExchanges(name(), config, null, false, JettyClients::outcomeOf);
    }

    @Override
    public void send(Request request, Completion completion) {
        exchanges.send(request, completion, call -> {
            InputStreamResponseListener listener = new InputStreamResponseListener();
            JettyClients.newRequest(client, call.timeLeft(), request).send(listener);
            Response response = listener.get(call.timeLeft().toMillis() + BACKSTOP_MILLIS, TimeUnit.MILLISECONDS);
            try (InputStream body = listener.getInputStream()) {
                return Answer.of(response.getStatus(), buffers.drain(body));
            }
        });
    }

    /**
     * Ends the virtual threads first, then the client. The other order left connections open at the stub (12, once,
     * in the contract case of sends racing with close()): a thread that sent after {@code HttpClient.stop()} had
     * begun opened a connection that no selector was left to close. With the threads gone first, nothing sends
     * once the client stops, and stopping closes every connection it has; a thread waiting for its answer ends by
     * the interrupt, and its request by the stop.
     */
    @Override
    public void close() {
        exchanges.close();
        JettyClients.stop(client);
    }

    @Override
    public String libraryVersion() {
        return LibraryVersion.of(HttpClient.class, "org.eclipse.jetty", "jetty-client");
    }

    @Override
    public Map<String, String> settings() {
        return JettyClients.settings(config, client, VirtualThreads.THREADING + "; Jetty's pool and selectors do the I/O;"
                + " the body is read into a reused 16 KiB buffer");
    }

    @Override
    public String name() {
        return "jetty-vt";
    }
}
