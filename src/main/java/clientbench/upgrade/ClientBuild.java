package clientbench.upgrade;

import clientbench.adapters.Adapters;
import clientbench.startup.ClientArtifacts;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How to build the benchmark jar at one version of one client, or of a library it runs on (Netty): the pom properties
 * to override ({@code httpclient5.version=5.4.4}), the artifact whose version the jar then records, and the contract
 * test that must pass against it ({@code <adapter class>ContractTest}).
 */
public record ClientBuild(String client, String version, Map<String, String> properties, String artifact,
                          String contractTest) {

    /** Each client's version property in pom.xml; the JDK's own client has none. */
    private static final Map<String, String> PROPERTY = Map.ofEntries(Map.entry("ahc", "ahc.version"),
            Map.entry("apache", "httpclient5.version"), Map.entry("jetty", "jetty.version"),
            Map.entry("okhttp", "okhttp.version"), Map.entry("reactor", "reactor-netty.version"),
            Map.entry("vertx", "vertx.version"), Map.entry("helidon", "helidon.version"),
            // A Spring client's upgrade moves Spring, its engine staying as built.
            Map.entry("restclient-jdk", "spring.version"), Map.entry("restclient-apache", "spring.version"),
            Map.entry("restclient-jetty", "spring.version"), Map.entry("restclient-reactor", "spring.version"),
            Map.entry("webclient-reactor", "spring.version"), Map.entry("webclient-jetty", "spring.version"),
            Map.entry("webclient-jdk", "spring.version"), Map.entry("webclient-apache", "spring.version"),
            Map.entry("restclient-apache-actuator", "spring.version"), Map.entry("webclient-reactor-actuator", "spring.version"),
            Map.entry("armeria", "armeria.version"));
    private static final Pattern VERSION = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+-]*");

    public ClientBuild {
        properties = Map.copyOf(properties);
    }

    /**
     * @throws IllegalArgumentException for an unknown client, {@code jdk} (its version is the JDK's), or a version
     *         that is not one (it names a folder under target/upgrade/)
     */
    public static ClientBuild of(String client, String version) {
        Adapters.type(client); // an unknown name, with the valid ones
        String base = ClientArtifacts.base(client);
        String property = PROPERTY.get(base);
        if (property == null) {
            throw new IllegalArgumentException(client + " is the JDK's own HTTP client: its version is the JDK's; compare"
                    + " two JDKs with ./bench --jdk PATH instead");
        }
        if (!isVersion(version)) {
            throw new IllegalArgumentException("'" + version + "' is not a version (letters, digits, '.', '-', '+')");
        }
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(property, version);
        String artifact = ClientArtifacts.of(client).get(0);
        if ("okhttp".equals(base) && major(version) < 5) {
            // OkHttp 5 publishes its JVM jar as okhttp-jvm; up to 4 the jar was okhttp itself.
            properties.put("okhttp.artifact", "okhttp");
            artifact = "com.squareup.okhttp3:okhttp";
        }
        return new ClientBuild(client, version, properties, artifact,
                Adapters.type(client).getSimpleName() + "ContractTest");
    }

    /**
     * {@code client} built on {@code version} of a library it shares with others ({@code netty.version}), its own
     * version as the pom has it; the jar then records {@code artifact}'s version.
     */
    public static ClientBuild moving(String client, String property, String version, String artifact) {
        String contractTest = Adapters.type(client).getSimpleName() + "ContractTest"; // an unknown name, the valid ones
        if (!isVersion(version)) {
            throw new IllegalArgumentException("'" + version + "' is not a version (letters, digits, '.', '-', '+')");
        }
        return new ClientBuild(client, version, Map.of(property, version), artifact, contractTest);
    }

    /** Whether {@code version} is one version that can name a folder: no range, no property left unresolved. */
    static boolean isVersion(String version) {
        return version != null && VERSION.matcher(version).matches();
    }

    /** The folder's name under target/upgrade/: {@code apache-5.4.4}, or {@code reactor-netty-4.2.18.Final}. */
    public String folderName() {
        String moved = moved();
        return moved == null ? client + "-" + version : client + "-" + moved + "-" + version;
    }

    /** "okhttp 4.12.0", or "reactor with netty 4.2.18.Final", as every line about this build names it. */
    public String words() {
        String moved = moved();
        return moved == null ? client + " " + version : client + " with " + moved + " " + version;
    }

    /** The shared library this build moves ({@code netty} for {@code netty.version}), or null: the client's own. */
    public String moved() {
        String own = PROPERTY.get(ClientArtifacts.base(client));
        if (properties.isEmpty() || own != null && properties.containsKey(own)) {
            return null;
        }
        String property = properties.keySet().iterator().next();
        return property.endsWith(".version") ? property.substring(0, property.length() - ".version".length()) : property;
    }

    private static int major(String version) {
        int end = 0;
        while (end < version.length() && Character.isDigit(version.charAt(end))) {
            end++;
        }
        return end == 0 ? Integer.MAX_VALUE : Integer.parseInt(version.substring(0, Math.min(end, 9)));
    }
}
