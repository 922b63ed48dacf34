package clientbench.adapters.spring;

import clientbench.adapters.apache.ApacheClients;
import clientbench.adapters.jdk.JdkClients;
import clientbench.adapters.jetty.JettyClients;
import clientbench.adapters.reactor.ReactorEngine;
import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.VirtualThreads;
import clientbench.api.AdapterConfig;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.TimeoutKind;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.core5.io.CloseMode;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.JettyClientHttpRequestFactory;
import org.springframework.http.client.ReactorClientHttpRequestFactory;

/**
 * Each engine under RestClient: the client built by the bare adapter's own code, wrapped in its factory as Boot 4's
 * builders wrap a given client, plus the timeout and body-writing executor the suite needs (docs/reference/clients.md).
 */
final class RestClients {

    /**
     * One engine under RestClient.
     *
     * @param client the engine's live client, as the bare adapter holds it
     * @param permits the adapter's connection limit, or null where the engine limits itself
     * @param interruptAtDeadline the suite's deadline interrupts the request's virtual thread (no total timeout of its own)
     * @param threadsFirst close() ends the virtual threads before the engine, as the bare -vt adapter does
     */
    record Engine(Object client, ClientHttpRequestFactory factory, Semaphore permits, boolean interruptAtDeadline,
                  Function<Throwable, Outcome> classify, Supplier<Map<String, String>> settings, String version,
                  boolean threadsFirst, Runnable close) {
    }

    /** Builds one engine; {@code bodyWriters} runs what Spring writes request bodies on (virtual threads). */
    @FunctionalInterface
    interface Builder {
        Engine build(AdapterConfig config, String name, Executor bodyWriters);
    }

    private RestClients() {
    }

    /**
     * The JDK's client as jdk-vt builds it; the factory writes bodies on virtual threads, not a thread per body. Its
     * read timeout is Spring's way to bound the exchange (it cannot set jdk-vt's HttpRequest.timeout): every tuning.
     */
    static Engine jdk(AdapterConfig config, String name, Executor bodyWriters) {
        java.net.http.HttpClient client = JdkClients.newClient(config);
        JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory(client, bodyWriters);
        factory.setReadTimeout(config.requestTimeout()); // never 0: Spring 7.0 then fails every request at once
        Semaphore permits = AdapterSettings.adapterLimits(config) ? new Semaphore(config.maxConnections(), true) : null;
        Supplier<Map<String, String>> settings = () -> {
            Map<String, String> s = new LinkedHashMap<>(JdkClients.settings(config, client, JdkClients.connectionLimit(config,
                    permits != null ? "at most maxConnections exchanges at once; more wait on a fair semaphore in their"
                            + " virtual thread" : "none: the client has no limit, and the adapter adds none (the library's own)"),
                    VirtualThreads.THREADING + "; request bodies written on virtual threads (the factory's executor)"));
            SpringLayer.timeout(s, TimeoutKind.TOTAL, "JdkClientHttpRequestFactory.setReadTimeout(requestTimeout):"
                    + " CompletableFuture.completeOnTimeout on the JDK's JVM-wide delay thread cancels the exchange before"
                    + " the head and closes the body after it (an expiry while reading is an I/O error); the factory"
                    + " cannot set the HttpRequest.timeout that jdk-vt uses. " + (permits == null
                    ? "Total from send(): no permit to wait for"
                    : "Total over the exchange, not less the permit wait: the wait for a permit takes up to the request"
                    + " timeout, then the exchange gets a whole one, as Spring sets one read timeout on the factory for"
                    + " every request (jdk-vt gives each HttpRequest.timeout what the wait left)"));
            s.put("springFactory", "JdkClientHttpRequestFactory(client, executor); compression on, Spring's default since"
                    + " 7.0 (no getter): it adds Accept-Encoding gzip, deflate only to a request without one, and the suite"
                    + " sends identity; without an executor it would write each body on a new platform thread");
            return s;
        };
        return new Engine(client, factory, permits, false, Outcomes::ofThrowable, settings, JdkClients.libraryVersion(),
                false, () -> JdkClients.shutdown(client));
    }

    /** Apache's classic client as apache-vt builds it; the factory adds no timeout when none is set on it. */
    static Engine apache(AdapterConfig config, String name, Executor bodyWriters) {
        PoolingHttpClientConnectionManager pool = ApacheClients.classicPool(config);
        CloseableHttpClient client = ApacheClients.newClassicClient(config, pool);
        HttpComponentsClientHttpRequestFactory factory = new HttpComponentsClientHttpRequestFactory(client);
        boolean own = config.tuning().libraryTimeout();
        Supplier<Map<String, String>> settings = () -> {
            Map<String, String> s = ApacheClients.classicSettings(config, pool,
                    VirtualThreads.THREADING + (own ? "" : "; one deadline thread of the adapter"));
            if (!own) { // with its own timeout the client's RequestConfig applies, as apache-vt records it
                SpringLayer.timeout(s, TimeoutKind.SUITE, "a deadline thread of the adapter's, as apache-vt's, from send()"
                        + " to the body's end: apache-vt cancels the request at expiry; Spring hides it, so the request's"
                        + " virtual thread is interrupted (its socket closes)");
            }
            s.put("springFactory", "HttpComponentsClientHttpRequestFactory(client); no connection-request or read timeout"
                    + " set on it, so the client's own RequestConfig applies; a body goes as a non-chunked entity of"
                    + " Content-Length");
            return s;
        };
        return new Engine(client, factory, null, !own, ApacheClients::outcomeOf, settings, ApacheClients.libraryVersion(),
                true, () -> client.close(CloseMode.IMMEDIATE));
    }

    /** Jetty's client as jetty-vt builds it; the factory's own 10 s cap is set to the request timeout. */
    static Engine jetty(AdapterConfig config, String name, Executor bodyWriters) {
        org.eclipse.jetty.client.HttpClient client = JettyClients.newClient(config);
        JettyClientHttpRequestFactory factory = new JettyClientHttpRequestFactory(client);
        factory.setReadTimeout(config.requestTimeout());
        Supplier<Map<String, String>> settings = () -> {
            Map<String, String> s = new LinkedHashMap<>(JettyClients.settings(config, client, VirtualThreads.THREADING
                    + "; Jetty's pool and selectors do the I/O"));
            SpringLayer.timeout(s, TimeoutKind.TOTAL, "JettyClientHttpRequestFactory.setReadTimeout(requestTimeout):"
                    + " Request.timeout, total from send() to the body's end, and the wait for the head (no getter)");
            s.put("springFactory", "JettyClientHttpRequestFactory(client): never stops the client, and starts it when"
                    + " it finds it stopped (close() destroys it as it stops it); its read timeout,"
                    + " 10 s unless set, caps every request; bodies go through a 1 KiB buffered stream on the caller's thread");
            return s;
        };
        return new Engine(client, factory, null, false, JettyClients::outcomeOf, settings,
                JettyClients.libraryVersion(), true,
                () -> JettyClients.stopForGood(client));
    }

    /**
     * Reactor Netty as reactor-vt builds it, but for its responseTimeout, which the factory's read timeout sets, as
     * Spring's users set it: the factory has no whole-exchange timeout and its body stream ignores interrupts.
     */
    static Engine reactor(AdapterConfig config, String name, Executor bodyWriters) {
        ReactorEngine engine = new ReactorEngine(config, name, false);
        ReactorClientHttpRequestFactory factory = new ReactorClientHttpRequestFactory(engine.client());
        factory.setReadTimeout(config.requestTimeout());
        factory.setExecutor(bodyWriters);
        Supplier<Map<String, String>> settings = () -> {
            Map<String, String> s = new LinkedHashMap<>(engine.settings());
            SpringLayer.timeout(s, TimeoutKind.PER_READ, "ReactorClientHttpRequestFactory.setReadTimeout(requestTimeout):"
                    + " the client's responseTimeout, from the request's end to the response's, each read resets it");
            s.put("threading", VirtualThreads.THREADING + "; the engine's event loops do the I/O; request bodies written"
                    + " on virtual threads (the factory's executor, not Reactor's JVM-wide boundedElastic)");
            s.put("springFactory", "ReactorClientHttpRequestFactory(client): takes the client as is (no compression or"
                    + " proxy initializer), never disposes its pool or loops; the exchange blocks on Mono.block()");
            return s;
        };
        return new Engine(engine.client(), factory, null, false, ReactorEngine::outcomeOf, settings,
                ReactorEngine.libraryVersion(),
                false, engine::close);
    }
}
