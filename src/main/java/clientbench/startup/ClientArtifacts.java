package clientbench.startup;

import clientbench.adapters.Adapters;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Each client's own Maven artifacts, {@code groupId:artifactId}: the pom's dependencies under "Clients under test"
 * that its adapters use. No version here: the pom holds them, and the jar's {@code clientbench/dependencies.txt} says
 * what the build resolved. A {@code -vt} client brings what its base client brings; {@code java.net.http} nothing.
 */
public final class ClientArtifacts {

    private static final Map<String, List<String>> BARE = Map.of(
            "ahc", List.of("org.asynchttpclient:async-http-client"),
            "apache", List.of("org.apache.httpcomponents.client5:httpclient5"),
            // HTTP/2 for the jetty adapters: h2c by prior knowledge, and h2 with the JDK's ALPN.
            "jetty", List.of("org.eclipse.jetty:jetty-client", "org.eclipse.jetty.http2:jetty-http2-client-transport",
                    "org.eclipse.jetty:jetty-alpn-java-client"),
            "okhttp", List.of("com.squareup.okhttp3:okhttp-jvm"),
            "jdk", List.of(),
            "reactor", List.of("io.projectreactor.netty:reactor-netty-http"),
            "vertx", List.of("io.vertx:vertx-core"),
            // helidon-webclient pulls HTTP/1.1 only; the adapter speaks HTTP/2 too.
            "helidon", List.of("io.helidon.webclient:helidon-webclient", "io.helidon.webclient:helidon-webclient-http2"));

    private static final String SPRING_WEB = "org.springframework:spring-web";
    private static final String SPRING_WEBFLUX = "org.springframework:spring-webflux";
    private static final String MICROMETER = "io.micrometer:micrometer-core";

    /** Every client's; a Spring one lists the Spring layer first (the artifact an upgrade moves), then its engine's. */
    private static final Map<String, List<String>> BY_BASE = byBase();

    private static Map<String, List<String>> byBase() {
        Map<String, List<String>> all = new HashMap<>(BARE);
        for (String engine : List.of("jdk", "apache", "jetty", "reactor")) {
            all.put("restclient-" + engine, with(List.of(SPRING_WEB), BARE.get(engine)));
        }
        all.put("webclient-reactor", with(List.of(SPRING_WEB, SPRING_WEBFLUX), BARE.get("reactor")));
        all.put("webclient-jdk", List.of(SPRING_WEB, SPRING_WEBFLUX));
        // The connectors' reactive bridges, which Spring declares optional.
        all.put("webclient-jetty", with(List.of(SPRING_WEB, SPRING_WEBFLUX, "org.eclipse.jetty:jetty-reactive-httpclient"),
                BARE.get("jetty")));
        all.put("webclient-apache", with(List.of(SPRING_WEB, SPRING_WEBFLUX,
                "org.apache.httpcomponents.core5:httpcore5-reactive"), BARE.get("apache")));
        // Observed as Boot with Actuator: Micrometer's meters and handler beside the layer and its engine.
        all.put("restclient-apache-actuator", with(List.of(SPRING_WEB, MICROMETER), BARE.get("apache")));
        all.put("webclient-reactor-actuator", with(List.of(SPRING_WEB, SPRING_WEBFLUX, MICROMETER), BARE.get("reactor")));
        all.put("armeria", List.of("com.linecorp.armeria:armeria"));
        return Map.copyOf(all);
    }

    private static List<String> with(List<String> first, List<String> then) {
        List<String> all = new java.util.ArrayList<>(first);
        all.addAll(then);
        return List.copyOf(all);
    }

    private static final String VIRTUAL_THREADS = "-vt";

    private ClientArtifacts() {
    }

    /** The client whose artifacts {@code client} uses: itself, or its base for a {@code -vt} variant. */
    public static String base(String client) {
        return client.endsWith(VIRTUAL_THREADS) ? client.substring(0, client.length() - VIRTUAL_THREADS.length()) : client;
    }

    /**
     * {@code client}'s artifacts, {@code groupId:artifactId}.
     *
     * @throws IllegalArgumentException for a name that is not a registered client ({@code noop} is none)
     */
    public static List<String> of(String client) {
        List<String> a = BY_BASE.get(base(client));
        if (a == null || !Adapters.isClient(client)) {
            throw new IllegalArgumentException("no artifacts listed for client '" + client + "'; valid: "
                    + String.join(", ", Adapters.all()));
        }
        return a;
    }
}
