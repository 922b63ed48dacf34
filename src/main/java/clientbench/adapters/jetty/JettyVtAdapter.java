package clientbench.adapters.jetty;

import clientbench.adapters.support.BodyBuffers;
import clientbench.adapters.support.OpenBodies;
import clientbench.adapters.support.VirtualThreadExchanges;
import clientbench.adapters.support.VirtualThreadExchanges.Answer;
import clientbench.adapters.support.VirtualThreads;
import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Request;
import java.io.InputStream;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Response;

/**
 * Jetty HttpClient 12 from virtual threads, as {@link JettyAdapter}, the timeout what is left at send. Each reads an
 * {@code InputStreamResponseListener} into {@link BodyBuffers}: the blocking {@code send()} buffers bodies (to 2 MiB).
 * Docs: https://jetty.org/docs/jetty/12.1/programming-guide/client/http.html
 */
public final class JettyVtAdapter implements HttpClientAdapter {

    /** Past Jetty's own total timeout, which ends the exchange first: only a backstop for the wait on the head. */
    private static final long BACKSTOP_MILLIS = 1_000;

    private final AdapterConfig config;
    private final HttpClient client;
    private final BodyBuffers buffers = new BodyBuffers();
    private final VirtualThreadExchanges exchanges;
    private final OpenBodies leftOpen = new OpenBodies();

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
            if (request.leavesBodyOpen()) { // the listener's InputStream never read nor closed
                leftOpen.hold(listener.getInputStream(), InputStream::close);
                return Answer.of(response.getStatus(), -1);
            }
            try (InputStream body = listener.getInputStream()) { // closed unread when the caller abandons the body
                return Answer.of(response.getStatus(), request.abandonsBody() ? -1 : buffers.drain(body));
            }
        });
    }

    /**
     * Ends the virtual threads first, then the client: a thread sending after {@code HttpClient.stop()} began opened a
     * connection no selector was left to close. A thread waiting for its answer ends by the interrupt, its request by
     * the stop.
     */
    @Override
    public void close() {
        exchanges.close();
        leftOpen.closeAll();
        JettyClients.stop(client);
    }

    @Override
    public String libraryVersion() {
        return JettyClients.libraryVersion();
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
