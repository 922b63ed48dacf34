package clientbench.adapters.spring;

import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.BodyBuffers;
import clientbench.adapters.support.OpenBodies;
import clientbench.adapters.support.VirtualThreadExchanges;
import clientbench.adapters.support.VirtualThreadExchanges.Answer;
import clientbench.adapters.support.VirtualThreads;
import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Request;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.observation.DefaultClientRequestObservationConvention;
import org.springframework.web.client.RestClient;

/**
 * Spring's RestClient over one engine's request factory ({@link RestClients}), blocking, one virtual thread per request
 * as the -vt adapters; status by {@code exchange} (no status handler), the body counted through reused buffers; Spring
 * drains a body the caller abandons for JDK, Apache and Reactor. Docs: docs/reference/clients.md#spring-restclient
 */
public abstract class RestClientAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final String name;
    /** The suite's client of the same engine on the same threads: what the layer's cost is measured over. */
    private final String bareClient;
    private final ExecutorService bodyWriters;
    private final RestClients.Engine engine;
    private final RestClient client;
    private final VirtualThreadExchanges exchanges;
    private final OpenBodies leftOpen = new OpenBodies();
    private final BodyBuffers buffers = new BodyBuffers();
    /** Null: no observation, Spring's default. */
    private final BootActuator actuator;

    RestClientAdapter(AdapterConfig config, String name, String bareClient, RestClients.Builder engine) {
        this(config, name, bareClient, engine, false);
    }

    /** @param observed observed as Boot with Actuator observes it ({@link BootActuator}) */
    RestClientAdapter(AdapterConfig config, String name, String bareClient, RestClients.Builder engine, boolean observed) {
        AdapterSettings.refuseHttp2(name, config, SpringLayer.NO_HTTP2);
        this.config = config;
        this.name = name;
        this.bareClient = bareClient;
        this.bodyWriters = VirtualThreads.perRequest(name + "-body");
        this.engine = engine.build(config, name, bodyWriters);
        this.actuator = observed ? new BootActuator() : null;
        RestClient.Builder builder = RestClient.builder().requestFactory(this.engine.factory()); // as Boot's configurer
        if (observed) { // as Boot's ObservationRestClientCustomizer
            builder.observationRegistry(actuator.registry()).observationConvention(
                    new DefaultClientRequestObservationConvention(BootActuator.NAME));
        }
        this.client = builder.build();
        this.exchanges = new VirtualThreadExchanges(name, config, this.engine.permits(), this.engine.interruptAtDeadline(),
                this.engine.classify());
    }

    @Override
    public void send(Request request, Completion completion) {
        exchanges.send(request, completion, call -> {
            if (engine.interruptAtDeadline()) {
                call.onDeadline(Thread.currentThread()::interrupt);
            }
            RestClient.RequestBodySpec spec = client.method(HttpMethod.valueOf(request.method())).uri(request.uri())
                    .headers(h -> SpringLayer.headers(request, h));
            if (request.hasBody()) {
                spec = spec.contentType(SpringLayer.contentType(request)).body(request.body());
            }
            if (request.leavesBodyOpen()) { // exchange(fn, false): the caller closes the response, and never does
                return spec.exchange((req, response) -> {
                    leftOpen.hold(response, r -> r.close());
                    return Answer.of(response.getStatusCode().value(), -1);
                }, false);
            }
            return spec.exchange((req, response) -> {
                int status = response.getStatusCode().value();
                return Answer.of(status, request.abandonsBody() ? -1 : buffers.drain(response.getBody()));
            }, true);
        });
    }

    /** The engine's own order: the bare -vt adapter's (jdk-vt closes its client first, apache-vt its threads). */
    @Override
    public void close() {
        if (engine.threadsFirst()) {
            exchanges.close();
        }
        leftOpen.closeAll();
        engine.close().run();
        exchanges.close();
        VirtualThreads.shutdown(bodyWriters);
        if (actuator != null) {
            actuator.close();
        }
    }

    @Override
    public String libraryVersion() {
        return SpringLayer.springWeb() + " over " + engine.version();
    }

    @Override
    public Map<String, String> settings() {
        Map<String, String> s = engine.settings().get();
        s.put("bareClient", bareClient);
        s.put("layer", "Spring RestClient " + SpringLayer.versionOf(SpringLayer.springWeb()) + " over "
                + engine.factory().getClass().getSimpleName() + ", built as Boot's RestClient.Builder builds it:"
                + " requestFactory only, no interceptors, no buffering");
        s.put("bootWouldPick", SpringLayer.BOOT_FACTORY + "; " + SpringLayer.BOOT_ENGINE);
        s.put("status", "exchange(fn): no status handler runs, a 4xx or 5xx is read like a 2xx");
        s.put("body", "the response's InputStream read to its end into a reused 16 KiB buffer, counted, as the bare -vt"
                + " adapter reads it; no message converter, no byte[]");
        s.put("bodyAbandoned", "the response closed unread by exchange(fn, true): Spring's close() drains the rest"
                + " of the body for JDK, Apache and Reactor Netty, and only closes the stream for Jetty (which aborts it)");
        BootActuator.record(s, actuator);
        return Collections.unmodifiableMap(s);
    }

    @Override
    public String name() {
        return name;
    }
}
