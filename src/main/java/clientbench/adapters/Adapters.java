package clientbench.adapters;

import clientbench.adapters.ahc.AhcAdapter;
import clientbench.adapters.apache.ApacheAdapter;
import clientbench.adapters.apache.ApacheVtAdapter;
import clientbench.adapters.helidon.HelidonAdapter;
import clientbench.adapters.jdk.JdkAdapter;
import clientbench.adapters.jdk.JdkVtAdapter;
import clientbench.adapters.jetty.JettyAdapter;
import clientbench.adapters.jetty.JettyVtAdapter;
import clientbench.adapters.noop.NoopAdapter;
import clientbench.adapters.okhttp.OkHttpAdapter;
import clientbench.adapters.okhttp.OkHttpVtAdapter;
import clientbench.adapters.reactor.ReactorNettyAdapter;
import clientbench.adapters.vertx.VertxAdapter;
import clientbench.api.AdapterConfig;
import clientbench.api.HttpClientAdapter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Every adapter by its JMH {@code client} parameter value: the asynchronous APIs first, then the
 * blocking APIs driven from virtual threads ({@code -vt}).
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
        Class<? extends HttpClientAdapter> t = TYPES.get(name == null ? "" : name.trim());
        if (t == null) {
            throw new IllegalArgumentException("unknown client '" + name + "'; valid: " + String.join(", ", TYPES.keySet()));
        }
        return t;
    }

    /** The valid names, in a fixed order. */
    public static List<String> names() {
        return List.copyOf(FACTORIES.keySet());
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
        Function<AdapterConfig, HttpClientAdapter> factory = FACTORIES.get(name == null ? "" : name.trim());
        if (factory == null) {
            throw new IllegalArgumentException("unknown client '" + name + "'; valid: "
                    + String.join(", ", FACTORIES.keySet()) + " (and " + NOOP + ", the harness's own)");
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
