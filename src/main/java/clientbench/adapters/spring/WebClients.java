package clientbench.adapters.spring;

import clientbench.adapters.apache.ApacheClients;
import clientbench.adapters.jdk.JdkClients;
import clientbench.adapters.jetty.JettyClients;
import clientbench.adapters.reactor.ReactorEngine;
import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.AsyncPermits;
import clientbench.api.AdapterConfig;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.TimeoutKind;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.springframework.http.client.reactive.ClientHttpConnector;
import org.springframework.http.client.reactive.HttpComponentsClientHttpConnector;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.http.client.reactive.JettyClientHttpConnector;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;

/**
 * Each engine under WebClient: the client built by the bare async adapter's own code, in its connector as Boot 4's
 * builders wrap a given client, with the bare adapter's timeout and in-flight bookkeeping reached through Spring's API.
 */
final class WebClients {

    /**
     * One engine under WebClient.
     *
     * @param client the engine's live client, as the bare adapter holds it
     * @param permits the adapter's connection limit, or null where the engine limits itself
     * @param deadline where the request timeout runs: the bare adapter's timer
     * @param inFlight the bare adapter's bookkeeping of the requests in flight
     */
    record Engine(Object client, ClientHttpConnector connector, AsyncPermits permits, WebDeadline deadline,
                  WebInFlight inFlight, Function<Throwable, Outcome> classify, Supplier<Map<String, String>> settings,
                  String version, Runnable close) {
    }

    @FunctionalInterface
    interface Builder {
        Engine build(AdapterConfig config, String name);
    }

    private WebClients() {
    }

    /** Reactor Netty as the reactor adapter builds it, its timeout too: Mono.timeout on its own loops, as there. */
    static Engine reactor(AdapterConfig config, String name) {
        ReactorEngine engine = new ReactorEngine(config, name);
        ReactorClientHttpConnector connector = new ReactorClientHttpConnector(engine.client());
        Supplier<Map<String, String>> settings = () -> {
            Map<String, String> s = new LinkedHashMap<>(engine.settings());
            s.put("springConnector", "ReactorClientHttpConnector(client): takes the client as is, never disposes its"
                    + " pool or loops");
            return s;
        };
        WebDeadline deadline = config.tuning().libraryTimeout() ? WebDeadline.inTheClient()
                : WebDeadline.monoTimeout(engine.timeouts());
        return new Engine(engine.client(), connector, null, deadline, WebInFlight.set(), ReactorEngine::outcomeOf,
                settings, ReactorEngine.libraryVersion(), engine::close);
    }

    /** Jetty as the jetty adapter builds it; its total Request.timeout set on each native request, as there. */
    static Engine jetty(AdapterConfig config, String name) {
        org.eclipse.jetty.client.HttpClient client = JettyClients.newClient(config);
        JettyClientHttpConnector connector = new JettyClientHttpConnector(client);
        Supplier<Map<String, String>> settings = () -> {
            Map<String, String> s = new LinkedHashMap<>(JettyClients.settings(config, client,
                    "jetty-reactive-httpclient on the client's QueuedThreadPool and selectors"));
            SpringLayer.timeout(s, TimeoutKind.TOTAL, "Request.timeout on the native request (httpRequest(r ->"
                    + " r.getNativeRequest()), less time queued in the adapter: total, as the jetty adapter's");
            s.put("springConnector", "JettyClientHttpConnector(client) over jetty-reactive-httpclient: sets no"
                    + " Request.timeout of its own, never stops the client, and starts it when it finds it stopped, so"
                    + " close() destroys it as it stops it (a send racing with close() fails at once)");
            return s;
        };
        return new Engine(client, connector, null, WebDeadline.jettyRequest(), WebInFlight.none(),
                JettyClients::outcomeOf, settings, JettyClients.libraryVersion(), () -> JettyClients.stopForGood(client));
    }

    /**
     * The JDK's client as the jdk adapter builds it, its HttpRequest.timeout set through the connector; it has no
     * connection limit, so a FIFO queue here holds the rest, as there.
     */
    static Engine jdk(AdapterConfig config, String name) {
        java.net.http.HttpClient client = JdkClients.newClient(config);
        JdkClientHttpConnector connector = new JdkClientHttpConnector(client);
        connector.setReadTimeout(config.requestTimeout());
        AsyncPermits permits = AdapterSettings.adapterLimits(config) ? new AsyncPermits(config.maxConnections()) : null;
        Supplier<Map<String, String>> settings = () -> {
            Map<String, String> s = new LinkedHashMap<>(JdkClients.settings(config, client, JdkClients.connectionLimit(config,
                    permits != null ? "at most maxConnections exchanges at once; more wait in a queue in the adapter,"
                            + " without blocking the caller" : "none: the client has no limit, and the adapter adds none"),
                    "sendAsync with BodyHandlers.ofPublisher; the client's selector thread and default executor"));
            SpringLayer.timeout(s, JdkClients.timeoutKind(), "JdkClientHttpConnector.setReadTimeout: HttpRequest.timeout,"
                    + " as the jdk adapter's, but the whole request timeout (a timeout set once on the connector cannot"
                    + " take off the time queued in the adapter); up to the response headers before JDK 26");
            s.put("springConnector", "JdkClientHttpConnector(client): no compression");
            return s;
        };
        return new Engine(client, connector, permits, WebDeadline.inTheClient(), WebInFlight.count(),
                Outcomes::ofThrowable, settings, JdkClients.libraryVersion(), () -> JdkClients.shutdown(client));
    }

    /**
     * Apache's async client as the apache adapter builds it, HTTP/1.1, with its deadline timer. The connector starts
     * it, and ignores a cancellation: an exchange the timeout gave up on runs on in the client, holding its connection.
     */
    static Engine apache(AdapterConfig config, String name) {
        ApacheClients.ReactorThreads reactorThreads = new ApacheClients.ReactorThreads(name);
        PoolingAsyncClientConnectionManager pool = ApacheClients.asyncPool(config);
        CloseableHttpAsyncClient client = ApacheClients.newAsyncClient(config, reactorThreads, pool);
        reactorThreads.built();
        HttpComponentsClientHttpConnector connector = new HttpComponentsClientHttpConnector(client);
        boolean own = config.tuning().libraryTimeout();
        Supplier<Map<String, String>> settings = () -> {
            Map<String, String> s = ApacheClients.asyncSettings(config, ApacheClients.poolLimits(pool), reactorThreads,
                    "I/O reactor threads; callbacks on them" + (own ? "" : "; one deadline thread of the adapter"));
            if (!own) { // with its own timeout the client's RequestConfig applies, as the apache adapter records it
                SpringLayer.timeout(s, TimeoutKind.SUITE, "a DeadlineTimer of the adapter, as the apache adapter's, fails"
                        + " the exchange when the request timeout passes; Spring's connector does not cancel Apache's");
            }
            s.put("springConnector", "HttpComponentsClientHttpConnector(client) over httpcore5-reactive: starts the client;"
                    + " a cancelled or timed-out exchange is not cancelled in the client (Mono.create without onCancel)");
            return s;
        };
        return new Engine(client, connector, null, own ? WebDeadline.inTheClient() : WebDeadline.timer(name),
                WebInFlight.set(), ApacheClients::outcomeOf, settings, ApacheClients.libraryVersion(),
                () -> ApacheClients.close(client));
    }
}
