package clientbench.adapters.jetty;

import clientbench.api.AdapterConfig;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import clientbench.api.TimeoutKind;
import clientbench.api.TrustAllCertificates;
import clientbench.adapters.support.AdapterSettings;
import java.net.SocketTimeoutException;
import java.time.Duration;
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
import org.eclipse.jetty.io.SelectorManager;
import org.eclipse.jetty.util.component.LifeCycle;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/** The Jetty client both Jetty adapters use (settings: docs/reference/clients.md), and its helpers. */
public final class JettyClients {

    /**
     * Requests that may wait per destination: unbounded, as the harness bounds requests in flight itself (up to tens of
     * thousands) and Jetty's default of 1,024 would reject a burst. The queue grows in steps of 32, so the bound costs
     * no memory.
     */
    static final int MAX_QUEUED = Integer.MAX_VALUE;

    private JettyClients() {
    }

    public static HttpClient newClient(AdapterConfig config) {
        ClientConnector connector = new ClosingClientConnector();
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
        // HTTP/2: one connection, as in every HTTP/2 row; Jetty's multiplexed pool would open up to this many.
        if (AdapterSettings.adapterLimits(config)) { // else the library's: 64 per destination, 1,024 queued
            client.setMaxConnectionsPerDestination(AdapterSettings.http2(config) ? 1 : config.maxConnections());
            client.setMaxRequestsQueuedPerDestination(MAX_QUEUED);
        }
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

    /** The request as Jetty's users write it, on every send; {@code timeout} is total, from send() to the body's end. */
    static org.eclipse.jetty.client.Request newRequest(HttpClient client, Duration timeout, Request request) {
        org.eclipse.jetty.client.Request r = client.newRequest(request.uri())
                .method(request.method())
                .timeout(Math.max(1, timeout.toMillis()), TimeUnit.MILLISECONDS)
                .headers(h -> request.headers().forEach(x -> h.add(x.name(), x.value())));
        if (request.hasBody()) {
            r.body(new BytesRequestContent(request.contentType(), request.body()));
        }
        return r;
    }

    /** Jetty reports a connect timeout as a plain {@code SocketTimeoutException}: a connect failure. */
    public static Outcome outcomeOf(Throwable failure) {
        for (Throwable c : Outcomes.causes(failure)) {
            if (c instanceof SocketTimeoutException && String.valueOf(c.getMessage()).contains("Connect")) {
                return Outcome.CONNECT;
            }
        }
        return Outcomes.ofThrowable(failure);
    }

    /** What the live client runs with, read from it: connections, queue, selectors. */
    public static Map<String, String> settings(AdapterConfig config, HttpClient client, String threading) {
        Map<String, String> s = AdapterSettings.common(config, "maxConnectionsPerDestination = "
                        + client.getMaxConnectionsPerDestination() + "; more wait in the destination queue, which holds "
                        + client.getMaxRequestsQueuedPerDestination() + " (the harness bounds requests in flight)",
                TimeoutKind.TOTAL, "Request.timeout: total, from send() to the end of the body");
        AdapterSettings.http2OneConnection(s, config, "as many streams as the server's SETTINGS_MAX_CONCURRENT_STREAMS"
                + " allows on the one connection (maxConnectionsPerDestination = 1); more wait in the destination queue");
        s.put("maxRequestsQueuedPerDestination", Integer.toString(client.getMaxRequestsQueuedPerDestination()));
        s.put("retries", "none (Jetty re-sends only a request never written, on a connection it closed itself)");
        s.put("threading", threading);
        ClientConnector connector = client.getContainedBeans(ClientConnector.class).iterator().next();
        AdapterSettings.tcpNoDelay(s, connector.isTCPNoDelay(), "ClientConnector.isTCPNoDelay() of the live client");
        SelectorManager selectors = connector.getSelectorManager();
        AdapterSettings.ioThreads(s, selectors == null ? 0 : selectors.getSelectorCount(),
                "selector threads (ClientConnector's SelectorManager), run on the client's QueuedThreadPool");
        return Collections.unmodifiableMap(s);
    }

    /** Stops the executor, scheduler, selectors and connections; blocks until they are stopped. */
    public static void stop(HttpClient client) {
        try {
            client.stop();
        } catch (Exception e) {
            throw new IllegalStateException("Jetty HttpClient did not stop: " + e, e);
        }
    }

    /**
     * Stops the client, destroyed as it stops (under its lifecycle lock), so that a start() racing with the stop fails
     * ("Destroyed container cannot be restarted") rather than start its threads again: Spring's Jetty connector and
     * request factory start a client they find stopped.
     */
    public static void stopForGood(HttpClient client) {
        client.addEventListener(new LifeCycle.Listener() {
            @Override
            public void lifeCycleStopped(LifeCycle stopped) {
                client.destroy();
            }
        });
        stop(client);
    }

    /** Maven coordinates and version of jetty-client, read from its jar. */
    public static String libraryVersion() {
        return clientbench.api.LibraryVersion.of(HttpClient.class, "org.eclipse.jetty", "jetty-client");
    }
}
