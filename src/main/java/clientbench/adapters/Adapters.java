package clientbench.adapters;

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

    static {
        FACTORIES.put("ahc", AhcAdapter::new);
        FACTORIES.put("apache", ApacheAdapter::new);
        FACTORIES.put("jetty", JettyAdapter::new);
        FACTORIES.put("okhttp", OkHttpAdapter::new);
        FACTORIES.put("jdk", JdkAdapter::new);
        FACTORIES.put("apache-vt", ApacheVtAdapter::new);
        FACTORIES.put("jetty-vt", JettyVtAdapter::new);
        FACTORIES.put("okhttp-vt", OkHttpVtAdapter::new);
        FACTORIES.put("jdk-vt", JdkVtAdapter::new);
    }

    /** Not a client: completes inline, for measuring the harness itself. */
    public static final String NOOP = "noop";

    private Adapters() {
    }

    /** The valid names, in a fixed order. */
    public static List<String> names() {
        return List.copyOf(FACTORIES.keySet());
    }

    /**
     * Builds the named adapter; the caller closes it.
     *
     * @throws IllegalArgumentException for an unknown name (listing the valid ones, before anything is
     *         created) or a protocol the adapter does not support
     */
    public static HttpClientAdapter create(String name, AdapterConfig config) {
        if (NOOP.equals(name)) {
            Objects.requireNonNull(config, "config");
            return new clientbench.harness.NoopAdapter();
        }
        Function<AdapterConfig, HttpClientAdapter> factory = FACTORIES.get(name == null ? "" : name.trim());
        if (factory == null) {
            throw new IllegalArgumentException("unknown client '" + name + "'; valid: "
                    + String.join(", ", FACTORIES.keySet()) + " (and " + NOOP + ", the harness's own)");
        }
        return factory.apply(Objects.requireNonNull(config, "config"));
    }
}
