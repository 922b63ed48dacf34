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
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.springframework.http.client.reactive.ClientHttpConnector;
import org.springframework.http.client.reactive.HttpComponentsClientHttpConnector;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.http.client.reactive.JettyClientHttpConnector;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Each engine under WebClient: the client built by the bare async adapter's own code, in its connector as Boot 4's
 * builders wrap a given client. Spring adds no timeout over a given client, so the suite's Mono.timeout bounds each.
 */
final class WebClients {

    /**
     * One engine under WebClient.
     *
     * @param client the engine's live client, as the bare adapter holds it
     * @param permits the adapter's connection limit, or null where the engine limits itself
     * @param timeouts where the suite's whole-exchange timeout runs, or null when the library's own timeout applies
     */
    record Engine(Object client, ClientHttpConnector connector, AsyncPermits permits, Scheduler timeouts,
                  Function<Throwable, Outcome> classify, Supplier<Map<String, String>> settings, String version,
                  Runnable close) {
    }

    @FunctionalInterface
    interface Builder {
        Engine build(AdapterConfig config, String name);
    }

    private static final String DEADLINE = "Mono.timeout over the whole exchange (connect, response, body) on the"
            + " adapter's deadline thread: Spring's connector adds no timeout to a given client";

    private WebClients() {
    }

    /** Reactor Netty as the reactor adapter builds it; the timeout runs on its own loops, as there. */
    static Engine reactor(AdapterConfig config, String name) {
        ReactorEngine engine = new ReactorEngine(config, name);
        ReactorClientHttpConnector connector = new ReactorClientHttpConnector(engine.client());
        Supplier<Map<String, String>> settings = () -> {
            Map<String, String> s = new LinkedHashMap<>(engine.settings());
            s.put("springConnector", "ReactorClientHttpConnector(client): takes the client as is, never disposes its"
                    + " pool or loops");
            return s;
        };
        return new Engine(engine.client(), connector, null, config.tuning().libraryTimeout() ? null : engine.timeouts(),
                ReactorEngine::outcomeOf, settings, ReactorEngine.libraryVersion(), engine::close);
    }

    /** Jetty as the jetty adapter builds it; the connector sets no Request.timeout, so the suite's timer is the only one. */
    static Engine jetty(AdapterConfig config, String name) {
        org.eclipse.jetty.client.HttpClient client = JettyClients.newClient(config);
        JettyClientHttpConnector connector = new JettyClientHttpConnector(client);
        Deadlines deadlines = new Deadlines(name);
        Supplier<Map<String, String>> settings = () -> {
            Map<String, String> s = new LinkedHashMap<>(JettyClients.settings(config, client,
                    "jetty-reactive-httpclient on the client's QueuedThreadPool and selectors; one deadline thread"));
            SpringLayer.timeout(s, TimeoutKind.SUITE, DEADLINE);
            s.put("springConnector", "JettyClientHttpConnector(client) over jetty-reactive-httpclient: no Request.timeout"
                    + " (the library's own is therefore none), never stops the client");
            return s;
        };
        return new Engine(client, connector, null, deadlines.scheduler, JettyClients::outcomeOf, settings,
                JettyClients.libraryVersion(), () -> {
                    JettyClients.stop(client);
                    deadlines.close();
                });
    }

    /** The JDK's client as the jdk adapter builds it; it has no connection limit, so a FIFO queue here holds the rest. */
    static Engine jdk(AdapterConfig config, String name) {
        java.net.http.HttpClient client = JdkClients.newClient(config);
        JdkClientHttpConnector connector = new JdkClientHttpConnector(client);
        boolean own = config.tuning().libraryTimeout();
        Deadlines deadlines = own ? null : new Deadlines(name);
        if (own) {
            connector.setReadTimeout(config.requestTimeout());
        }
        AsyncPermits permits = AdapterSettings.adapterLimits(config) ? new AsyncPermits(config.maxConnections()) : null;
        Supplier<Map<String, String>> settings = () -> {
            Map<String, String> s = new LinkedHashMap<>(JdkClients.settings(config, client, JdkClients.connectionLimit(config,
                    permits != null ? "at most maxConnections exchanges at once; more wait in a queue in the adapter,"
                            + " without blocking the caller" : "none: the client has no limit, and the adapter adds none"),
                    "sendAsync with BodyHandlers.ofPublisher; the client's selector thread and default executor"
                            + (own ? "" : "; one deadline thread")));
            SpringLayer.timeout(s, own ? JdkClients.timeoutKind() : TimeoutKind.SUITE, own ? "JdkClientHttpConnector"
                    + ".setReadTimeout: HttpRequest.timeout, up to the response headers before JDK 26" : DEADLINE);
            s.put("springConnector", "JdkClientHttpConnector(client): no compression, no read timeout unless set");
            return s;
        };
        return new Engine(client, connector, permits, deadlines == null ? null : deadlines.scheduler, Outcomes::ofThrowable,
                settings, JdkClients.libraryVersion(), () -> {
                    JdkClients.shutdown(client);
                    if (deadlines != null) {
                        deadlines.close();
                    }
                });
    }

    /**
     * Apache's async client as the apache adapter builds it, HTTP/1.1. The connector starts it, and ignores a
     * cancellation: an exchange the timeout gave up on runs on in the client, holding its connection until it ends.
     */
    static Engine apache(AdapterConfig config, String name) {
        ApacheClients.ReactorThreads reactorThreads = new ApacheClients.ReactorThreads(name);
        PoolingAsyncClientConnectionManager pool = ApacheClients.asyncPool(config);
        CloseableHttpAsyncClient client = ApacheClients.newAsyncClient(config, reactorThreads, pool);
        reactorThreads.built();
        HttpComponentsClientHttpConnector connector = new HttpComponentsClientHttpConnector(client);
        boolean own = config.tuning().libraryTimeout();
        Deadlines deadlines = own ? null : new Deadlines(name);
        Supplier<Map<String, String>> settings = () -> {
            Map<String, String> s = ApacheClients.asyncSettings(config, ApacheClients.poolLimits(pool), reactorThreads,
                    "I/O reactor threads; callbacks on them" + (own ? "" : "; one deadline thread of the adapter"));
            if (!own) { // with its own timeout the client's RequestConfig applies, as the apache adapter records it
                SpringLayer.timeout(s, TimeoutKind.SUITE, DEADLINE + "; Apache's exchange is not cancelled by it");
            }
            s.put("springConnector", "HttpComponentsClientHttpConnector(client) over httpcore5-reactive: starts the client;"
                    + " a cancelled or timed-out exchange is not cancelled in the client (Mono.create without onCancel)");
            return s;
        };
        return new Engine(client, connector, null, deadlines == null ? null : deadlines.scheduler, ApacheClients::outcomeOf,
                settings, ApacheClients.libraryVersion(), () -> {
                    ApacheClients.close(client);
                    if (deadlines != null) {
                        deadlines.close();
                    }
                });
    }

    /** One daemon thread of the adapter's own for Mono.timeout: never Reactor's JVM-wide parallel(), which outlives close(). */
    static final class Deadlines implements AutoCloseable {
        private final ScheduledThreadPoolExecutor executor;
        final Scheduler scheduler;

        Deadlines(String name) {
            executor = new ScheduledThreadPoolExecutor(1, Thread.ofPlatform().name(name + "-deadline").daemon().factory());
            executor.setRemoveOnCancelPolicy(true);
            scheduler = Schedulers.fromExecutorService(executor, name + "-deadline");
        }

        @Override
        public void close() {
            scheduler.dispose();
            executor.shutdownNow();
            try {
                executor.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
