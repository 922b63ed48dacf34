package clientbench.startup;

import clientbench.adapters.Adapters;

import java.util.List;
import java.util.Map;

/**
 * Each client's own Maven artifacts, {@code groupId:artifactId}: the pom's dependencies under "Clients under test"
 * that its adapters use. No version here: the pom holds them, and the jar's {@code clientbench/dependencies.txt} says
 * what the build resolved. A {@code -vt} client brings what its base client brings; {@code java.net.http} nothing.
 */
public final class ClientArtifacts {

    private static final Map<String, List<String>> BY_BASE = Map.of(
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
        if (a == null || !Adapters.names().contains(client)) {
            throw new IllegalArgumentException("no artifacts listed for client '" + client + "'; valid: "
                    + String.join(", ", Adapters.names()));
        }
        return a;
    }
}
