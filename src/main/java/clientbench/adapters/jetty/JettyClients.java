package clientbench.adapters.jetty;

import clientbench.api.AdapterConfig;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import clientbench.api.TrustAllCertificates;
import clientbench.adapters.support.AdapterSettings;
import java.net.SocketTimeoutException;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/** The Jetty client both Jetty adapters use (settings in {@link JettyAdapter}'s class comment), and its helpers. */
final class JettyClients {

    private JettyClients() {
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
        HttpClient client = new HttpClient(AdapterSettings.http2(config)
                ? new HttpClientTransportOverHTTP2(new HTTP2Client(connector))
                : new HttpClientTransportOverHTTP(connector));
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
                .headers(h -> request.headers().forEach(x -> h.add(x.name(), x.value())));
        if (request.hasBody()) {
            r.body(new BytesRequestContent(request.contentType(), request.body()));
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
        Map<String, String> s = AdapterSettings.common(config, AdapterSettings.http2(config)
                        ? "maxConnectionsPerDestination connections, each with as many streams as the server allows;"
                                + " up to 1024 more requests wait in the destination queue, beyond that rejected"
                        : "maxConnectionsPerDestination; up to 1024 more wait in the destination queue, beyond that rejected",
                "Request.timeout: total, from send() to the end of the body");
        AdapterSettings.http2Connections(s, config, "a multiplexed pool of up to maxConnections connections: until a"
                + " connection has the server's SETTINGS Jetty counts it as one stream, so concurrent first requests open"
                + " up to maxConnections; after that a new one opens only when every open one has its streams full");
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
