package clientbench.adapters;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import clientbench.api.AdapterConfig;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Protocol;
import java.net.URI;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The registry, and bad input refused with a message that names it, before any client exists. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class AdaptersTest {

    private static final AdapterConfig CONFIG = AdapterConfig.defaults(URI.create("http://127.0.0.1:9"));

    @Test
    void namesAreTheJmhParameterValuesInOrder() {
        assertEquals(List.of("ahc", "apache", "jetty", "okhttp", "jdk", "apache-vt", "jetty-vt", "okhttp-vt", "jdk-vt",
                        "reactor", "vertx", "helidon"),
                Adapters.names());
    }

    @Test
    void optInClientsAreKnownButNotAmongTheNamesEveryRunCompares() {
        assertEquals(List.of("restclient-jdk", "restclient-apache", "restclient-jetty", "restclient-reactor",
                "webclient-reactor", "webclient-jetty", "webclient-jdk", "webclient-apache", "armeria", "reactor-vt",
                "restclient-apache-actuator", "webclient-reactor-actuator"), Adapters.optIn());
        for (String name : Adapters.optIn()) {
            assertTrue(!Adapters.names().contains(name) && Adapters.all().contains(name) && Adapters.isClient(name), name);
            assertDoesNotThrow(() -> Adapters.type(name), name);
        }
    }

    /** Every layer in the family comes with the bare clients it runs over, so one run compares the two; and Armeria. */
    @Test
    void theSpringFamilyHoldsEverySpringClientAndItsEngines() {
        List<String> spring = Adapters.family(Adapters.SPRING);
        for (String name : Adapters.optIn()) {
            assertTrue(spring.contains(name), name);
        }
        for (String engine : List.of("jdk", "jdk-vt", "apache", "apache-vt", "jetty", "jetty-vt", "reactor")) {
            assertTrue(spring.contains(engine), engine);
        }
        assertEquals(spring.size(), Adapters.optIn().size() + 7, spring::toString);
        assertTrue(spring.stream().allMatch(Adapters::isClient), spring::toString);
        assertNull(Adapters.family("jdk"));
    }

    /**
     * Each layer names, in its live settings, the bare client of its engine on its threads: the verdict's pair. A
     * deadline of its own: it starts and closes a dozen clients, each with its threads, seconds on a loaded machine.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void eachSpringClientRecordsTheBareClientItIsComparedWith() throws Exception {
        Map<String, String> expected = Map.of("restclient-jdk", "jdk-vt", "restclient-apache", "apache-vt",
                "restclient-jetty", "jetty-vt", "restclient-reactor", "reactor-vt", "webclient-reactor", "reactor",
                "webclient-jetty", "jetty", "webclient-jdk", "jdk", "webclient-apache", "apache",
                "restclient-apache-actuator", "restclient-apache", "webclient-reactor-actuator", "webclient-reactor");
        Set<String> layers = new HashSet<>(Adapters.optIn());
        layers.remove("armeria"); // no layer: a client of its own
        layers.remove("reactor-vt"); // no layer: restclient-reactor's bare client
        assertEquals(expected.keySet(), layers);
        for (String name : Adapters.optIn()) {
            try (HttpClientAdapter a = Adapters.create(name, CONFIG)) {
                assertEquals(expected.get(name), a.settings().get("bareClient"), name);
            }
        }
    }

    /** Every registered client, opt-in ones too, has its contract test: none is benchmarked before it passes. */
    @Test
    void everyClientHasAContractTest() {
        for (String name : Adapters.all()) {
            String test = "clientbench.adapters." + Adapters.type(name).getSimpleName() + "ContractTest";
            assertDoesNotThrow(() -> Class.forName(test), name);
        }
    }

    @Test
    void unknownNameListsTheValidNamesAndStartsNothing() throws Exception {
        PlatformThreads threads = PlatformThreads.baseline();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Adapters.create("nope", CONFIG));
        assertTrue(e.getMessage().contains("'nope'"), e.getMessage());
        for (String name : Adapters.names()) {
            assertTrue(e.getMessage().contains(name), e.getMessage());
        }
        threads.awaitBackToBaseline(() -> 0, Duration.ofSeconds(3));
    }

    @Test
    void malformedTargetUrlIsNamedInTheError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AdapterConfig.parseTarget("ht!tp://x"));
        assertTrue(e.getMessage().contains("ht!tp://x"), e.getMessage());
    }

    @Test
    void nonHttpSchemeIsNamedInTheError() {
        URI ftp = AdapterConfig.parseTarget("ftp://127.0.0.1:21");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new AdapterConfig(ftp, Protocol.HTTP1,
                64, Duration.ofSeconds(1), Duration.ofSeconds(1), 0, false));
        assertTrue(e.getMessage().contains("ftp://127.0.0.1:21"), e.getMessage());
    }

    @Test
    void httpsTargetWithPlainProtocolIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new AdapterConfig(
                URI.create("https://127.0.0.1:8443"), Protocol.HTTP1, 64, Duration.ofSeconds(1), Duration.ofSeconds(1), 0, false));
        assertTrue(e.getMessage().contains("https://127.0.0.1:8443"), e.getMessage());
    }
}
