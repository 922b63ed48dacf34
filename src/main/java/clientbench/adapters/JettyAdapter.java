package clientbench.adapters;

import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.LibraryVersion;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import clientbench.api.TrustAllCertificates;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * Jetty HttpClient 12, asynchronous ({@code Request.send(Response.CompleteListener)}).
 * Docs: https://jetty.org/docs/jetty/12.1/programming-guide/client/http.html
 *
 * <p>Settings that differ from the client's defaults:
 * <ul>
 *   <li>maxConnectionsPerDestination = maxConnections (default 64); requests beyond wait in the
 *       destination's queue, which holds maxRequestsQueuedPerDestination (default 1024, kept): past
 *       that Jetty fails the request with {@code RejectedExecutionException}, reported as {@code REJECTED};</li>
 *   <li>transport HTTP/1.1 only ({@code HttpClientTransportOverHTTP}, the default);</li>
 *   <li>connect timeout from the config (default 5 s); a total timeout of requestTimeout on every
 *       request (default none; it covers queueing, connect and the whole body);</li>
 *   <li>followRedirects false (default true); cookie store {@code HttpCookieStore.Empty} (default an
 *       in-memory store); content decoders cleared after start (by default Jetty loads gzip and sends
 *       {@code Accept-Encoding: gzip}), and {@code Accept-Encoding: identity} sent explicitly;</li>
 *   <li>selectors = ioThreads when set (default 1);</li>
 *   <li>trust-all TLS without endpoint identification when asked.</li>
 * </ul>
 * Jetty does not retry. The body is counted in a content listener, never buffered.
 */
public final class JettyAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final HttpClient client;
    private final Map<String, String> settings;

    public JettyAdapter(AdapterConfig config) {
        AdapterSettings.requireHttp1(name(), config);
        this.config = config;
        this.settings = settings(config, "request listeners on the client's QueuedThreadPool; selector threads");
        this.client = newClient(config);
    }

    @Override
    public void send(Request request, Completion completion) {
        newRequest(client, config, request).send(new Response.Listener() {
            private long bytes;

            @Override
            public void onContent(Response response, ByteBuffer content) {
                bytes += content.remaining();
            }

            @Override
            public void onComplete(Result result) {
                int status = result.getResponse() == null ? 0 : result.getResponse().getStatus();
                if (result.isSucceeded()) {
                    completion.complete(Outcomes.ofResponse(status, bytes, request.expectedBodyBytes()), status, null);
                } else {
                    completion.complete(outcomeOf(result.getFailure()), 0, result.getFailure());
                }
            }
        });
    }

    @Override
    public void close() {
        stop(client);
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

    static HttpClient newClient(AdapterConfig config) {
        ClientConnector connector = new ClientConnector();
        if (config.ioThreads() > 0) {
            connector.setSelectors(config.ioThreads());
        }
        if (config.trustAllCertificates() && config.protocol().tls()) {
            SslContextFactory.Client tls = new SslContextFactory.Client();
            tls.setSslContext(TrustAllCertificates.sslContext());
            tls.setEndpointIdentificationAlgorithm(null);
            connector.setSslContextFactory(tls);
        }
        HttpClient client = new HttpClient(new HttpClientTransportOverHTTP(connector));
        client.setMaxConnectionsPerDestination(config.maxConnections());
        client.setConnectTimeout(config.connectTimeout().toMillis());
        client.setFollowRedirects(false);
        client.setHttpCookieStore(new HttpCookieStore.Empty());
        try {
            client.start();
        } catch (Exception e) {
            stop(client);
            throw new IllegalStateException("Jetty HttpClient did not start: " + e, e);
        }
        client.getContentDecoderFactories().clear(); // start() loads them, so only now
        return client;
    }

    static org.eclipse.jetty.client.Request newRequest(HttpClient client, AdapterConfig config, Request request) {
        org.eclipse.jetty.client.Request r = client.newRequest(request.uri())
                .method(request.method())
                .timeout(config.requestTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .headers(h -> h.put(AdapterSettings.ACCEPT_ENCODING, AdapterSettings.IDENTITY));
        if (request.hasBody()) {
            r.body(new BytesRequestContent(AdapterSettings.OCTET_STREAM, request.body()));
        }
        return r;
    }

    /** Jetty reports a connect timeout as a plain {@code SocketTimeoutException}: a connect failure. */
    static Outcome outcomeOf(Throwable failure) {
        for (Throwable c = failure; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof SocketTimeoutException && String.valueOf(c.getMessage()).contains("Connect")) {
                return Outcome.CONNECT;
            }
        }
        return Outcomes.ofThrowable(failure);
    }

    static Map<String, String> settings(AdapterConfig config, String threading) {
        Map<String, String> s = AdapterSettings.common(config,
                "maxConnectionsPerDestination; up to 1024 more wait in the destination queue, beyond that rejected",
                "Request.timeout: total, from send() to the end of the body");
        s.put("retries", "none (Jetty does not retry)");
        s.put("threading", threading);
        return Collections.unmodifiableMap(s);
    }

    /** Stops the executor, scheduler, selectors and connections; blocks until they are stopped. */
    static void stop(HttpClient client) {
        try {
            client.stop();
        } catch (Exception e) {
            throw new IllegalStateException("Jetty HttpClient did not stop: " + e, e);
        }
    }
}
