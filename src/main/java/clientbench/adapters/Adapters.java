package clientbench.adapters;

import clientbench.adapters.ahc.AhcAdapter;
import clientbench.adapters.apache.ApacheAdapter;
import clientbench.adapters.apache.ApacheVtAdapter;
import clientbench.adapters.armeria.ArmeriaAdapter;
import clientbench.adapters.helidon.HelidonAdapter;
import clientbench.adapters.jdk.JdkAdapter;
import clientbench.adapters.jdk.JdkVtAdapter;
import clientbench.adapters.jetty.JettyAdapter;
import clientbench.adapters.jetty.JettyVtAdapter;
import clientbench.adapters.noop.NoopAdapter;
import clientbench.adapters.okhttp.OkHttpAdapter;
import clientbench.adapters.okhttp.OkHttpVtAdapter;
import clientbench.adapters.reactor.ReactorNettyAdapter;
import clientbench.adapters.reactor.ReactorVtAdapter;
import clientbench.adapters.spring.RestClientApacheActuatorAdapter;
import clientbench.adapters.spring.RestClientApacheAdapter;
import clientbench.adapters.spring.RestClientJdkAdapter;
import clientbench.adapters.spring.RestClientJettyAdapter;
import clientbench.adapters.spring.RestClientReactorAdapter;
import clientbench.adapters.spring.WebClientApacheAdapter;
import clientbench.adapters.spring.WebClientJdkAdapter;
import clientbench.adapters.spring.WebClientJettyAdapter;
import clientbench.adapters.spring.WebClientReactorActuatorAdapter;
import clientbench.adapters.spring.WebClientReactorAdapter;
import clientbench.adapters.vertx.VertxAdapter;
import clientbench.api.AdapterConfig;
import clientbench.api.HttpClientAdapter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Every adapter by its JMH {@code client} parameter value: the asynchronous APIs first, then the
 * blocking APIs driven from virtual threads ({@code -vt}); then the opt-in ones, which only a run that names them runs.
 */
public final class Adapters {

    private static final Map<String, Function<AdapterConfig, HttpClientAdapter>> FACTORIES = new LinkedHashMap<>();
    private static final Map<String, Class<? extends HttpClientAdapter>> TYPES = new LinkedHashMap<>();

    static {
        register("ahc", AhcAdapter.class, AhcAdapter::new);
        register("apache", ApacheAdapter.class, ApacheAdapter::new);
        register("jetty", JettyAdapter.class, JettyAdapter::new);
        register("okhttp", OkHttpAdapter.class, OkHttpAdapter::new);
        register("jdk", JdkAdapter.class, JdkAdapter::new);
        register("apache-vt", ApacheVtAdapter.class, ApacheVtAdapter::new);
        register("jetty-vt", JettyVtAdapter.class, JettyVtAdapter::new);
        register("okhttp-vt", OkHttpVtAdapter.class, OkHttpVtAdapter::new);
        register("jdk-vt", JdkVtAdapter.class, JdkVtAdapter::new);
        register("reactor", ReactorNettyAdapter.class, ReactorNettyAdapter::new);
        register("vertx", VertxAdapter.class, VertxAdapter::new);
        register("helidon", HelidonAdapter.class, HelidonAdapter::new);
    }

    /**
     * The clients only a run that names them runs: layers over the clients above, and clients measured on request. A
     * holder of their own, so that a default run never loads their classes (its cold starts stay as they were).
     */
    private static final class OptIn {
        static final Map<String, Function<AdapterConfig, HttpClientAdapter>> FACTORIES = new LinkedHashMap<>();
        static final Map<String, Class<? extends HttpClientAdapter>> TYPES = new LinkedHashMap<>();

        static {
            add("restclient-jdk", RestClientJdkAdapter.class, RestClientJdkAdapter::new);
            add("restclient-apache", RestClientApacheAdapter.class, RestClientApacheAdapter::new);
            add("restclient-jetty", RestClientJettyAdapter.class, RestClientJettyAdapter::new);
            add("restclient-reactor", RestClientReactorAdapter.class, RestClientReactorAdapter::new);
            add("webclient-reactor", WebClientReactorAdapter.class, WebClientReactorAdapter::new);
            add("webclient-jetty", WebClientJettyAdapter.class, WebClientJettyAdapter::new);
            add("webclient-jdk", WebClientJdkAdapter.class, WebClientJdkAdapter::new);
            add("webclient-apache", WebClientApacheAdapter.class, WebClientApacheAdapter::new);
            add("armeria", ArmeriaAdapter.class, ArmeriaAdapter::new);
            add("reactor-vt", ReactorVtAdapter.class, ReactorVtAdapter::new);
            add("restclient-apache-actuator", RestClientApacheActuatorAdapter.class, RestClientApacheActuatorAdapter::new);
            add("webclient-reactor-actuator", WebClientReactorActuatorAdapter.class, WebClientReactorActuatorAdapter::new);
        }

        private static <A extends HttpClientAdapter> void add(String name, Class<A> type, Function<AdapterConfig, A> factory) {
            FACTORIES.put(name, factory::apply);
            TYPES.put(name, type);
        }
    }

    /**
     * The Spring family: every Spring client, then the bare clients they run over on the same threads (RestClient on
     * virtual threads: jdk-vt, apache-vt, jetty-vt, reactor-vt; WebClient async: jdk, apache, jetty, reactor), then
     * Armeria, the async client a WebClient user weighs against it. The two observed as Boot with Actuator observes
     * them are compared with themselves unobserved.
     */
    public static final String SPRING = "spring";

    private static final Map<String, List<String>> FAMILIES = Map.of(SPRING, List.of(
            "restclient-jdk", "restclient-apache", "restclient-jetty", "restclient-reactor",
            "webclient-reactor", "webclient-jetty", "webclient-jdk", "webclient-apache",
            "restclient-apache-actuator", "webclient-reactor-actuator",
            "apache", "jetty", "jdk", "apache-vt", "jetty-vt", "jdk-vt", "reactor", "reactor-vt", "armeria"));

    private static <A extends HttpClientAdapter> void register(String name, Class<A> type, Function<AdapterConfig, A> factory) {
        FACTORIES.put(name, factory::apply);
        TYPES.put(name, type);
    }

    /** Not a client: completes inline, for measuring the harness itself. */
    public static final String NOOP = "noop";

    private Adapters() {
    }

    /**
     * The class of the named adapter (its contract test is {@code <simple name>ContractTest}), without creating one.
     *
     * @throws IllegalArgumentException for a name that is not a client ({@code noop} is none)
     */
    public static Class<? extends HttpClientAdapter> type(String name) {
        String key = name == null ? "" : name.trim();
        Class<? extends HttpClientAdapter> t = TYPES.containsKey(key) ? TYPES.get(key) : OptIn.TYPES.get(key);
        if (t == null) {
            throw new IllegalArgumentException("unknown client '" + name + "'; valid: " + String.join(", ", all()));
        }
        return t;
    }

    /** The clients every run compares, in a fixed order: the opt-in ones are not among them. */
    public static List<String> names() {
        return List.copyOf(FACTORIES.keySet());
    }

    /** The clients only a run that names them runs (the Spring layers, Armeria, reactor-vt), in a fixed order. */
    public static List<String> optIn() {
        return List.copyOf(OptIn.FACTORIES.keySet());
    }

    /** Every client, those of {@link #names()} first, then the opt-in ones. */
    public static List<String> all() {
        List<String> all = new ArrayList<>(FACTORIES.keySet());
        all.addAll(OptIn.FACTORIES.keySet());
        return List.copyOf(all);
    }

    /** True for a registered client, default or opt-in ({@code noop} is none). */
    public static boolean isClient(String name) {
        String key = name == null ? "" : name.trim();
        return FACTORIES.containsKey(key) || OptIn.FACTORIES.containsKey(key);
    }

    /** The clients a family name stands for ({@value #SPRING}), or null for a name that is no family. */
    public static List<String> family(String name) {
        return name == null ? null : FAMILIES.get(name.trim());
    }

    /**
     * Builds the named adapter; the caller closes it.
     * @throws IllegalArgumentException for an unknown name (listing the valid ones, before anything is created) or a
     *         protocol the adapter does not support
     */
    public static HttpClientAdapter create(String name, AdapterConfig config) {
        if (NOOP.equals(name)) {
            Objects.requireNonNull(config, "config");
            return new NoopAdapter();
        }
        String key = name == null ? "" : name.trim();
        Function<AdapterConfig, HttpClientAdapter> factory = FACTORIES.containsKey(key) ? FACTORIES.get(key)
                : OptIn.FACTORIES.get(key);
        if (factory == null) {
            throw new IllegalArgumentException("unknown client '" + name + "'; valid: "
                    + String.join(", ", all()) + " (and " + NOOP + ", the harness's own)");
        }
        return factory.apply(Objects.requireNonNull(config, "config"));
    }

    /**
     * Why {@code name} cannot speak {@code protocol} (a label such as {@code h2c}), or null when it can.
     * Adapters refuse an unsupported protocol in their constructor, before they create anything, so
     * asking costs one construction and close.
     */
    public static String refusal(String name, String protocol) {
        clientbench.api.Protocol p = clientbench.api.Protocol.parse(protocol);
        if (p == clientbench.api.Protocol.HTTP1) {
            return null; // every adapter speaks HTTP/1.1: the contract test holds them to it
        }
        java.net.URI target = java.net.URI.create((p.tls() ? "https" : "http") + "://127.0.0.1:9");
        AdapterConfig config = new AdapterConfig(target, p, 1, AdapterConfig.DEFAULT_CONNECT_TIMEOUT,
                AdapterConfig.DEFAULT_REQUEST_TIMEOUT, 0, true);
        try {
            create(name, config).close();
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }
}
