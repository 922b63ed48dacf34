package clientbench.adapters.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import clientbench.adapters.Adapters;
import clientbench.api.AdapterConfig;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Request;
import clientbench.testkit.BoundedSender;
import clientbench.testkit.StubJvm;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code -actuator} clients are observed as Boot with Actuator observes them: after N ok requests, N by the stub's
 * own count, their live meter registry holds the {@code http.client.requests} timer, which counted N, and the long task
 * timer {@code http.client.requests.active}, with none left active. Without the observation registry neither exists.
 * Every Spring layer records which it is, {@code observation: off} or {@code boot-actuator}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ActuatorClientsMeterEveryRequestTest {

    private static final int REQUESTS = 200;
    private static final int IN_FLIGHT = 8;
    /** An observation stops on the client's thread, after or just before its report: a deadline that ends a hang only. */
    private static final Duration ALL_STOPPED = Duration.ofSeconds(10);

    @RegisterExtension
    static final StubJvm stub = new StubJvm();

    static List<String> observed() {
        return Adapters.family(Adapters.SPRING).stream().filter(name -> name.endsWith("-actuator")).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("observed")
    void everyOkRequestIsTimedInTheLiveMeterRegistry(String client) throws Exception {
        try (HttpClientAdapter adapter = Adapters.create(client, AdapterConfig.defaults(stub.uri()))) {
            MeterRegistry meters = liveMeters(adapter);
            long before = stub.requests();
            Map<Outcome, Integer> outcomes = BoundedSender.send(adapter, Request.get(stub.uri(), "/?bytes=5", 5),
                    REQUESTS, IN_FLIGHT);
            long received = stub.requests() - before;
            assertEquals(Map.of(Outcome.OK, REQUESTS), outcomes, "outcomes");
            long deadline = System.nanoTime() + ALL_STOPPED.toNanos();
            while ((timed(meters) < received || active(meters) != 0) && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            LongTaskTimer active = meters.find(BootActuator.NAME + ".active").longTaskTimer();
            assertNotNull(active, () -> "no long task timer " + BootActuator.NAME + ".active; meters: " + describe(meters));
            assertEquals(0, active.activeTasks(), "observations never stopped");
            assertEquals(received, timed(meters), () -> "the stub received " + received + " requests; meters: "
                    + describe(meters));
        }
    }

    /** The {@code observation} setting is structured: the -actuator clients' {@code boot-actuator}, every other {@code off}. */
    @Test
    void everySpringLayerRecordsItsObservationAsOffOrBootActuator() {
        Map<String, String> recorded = new TreeMap<>();
        Map<String, String> expected = new TreeMap<>();
        for (String layer : Adapters.family(Adapters.SPRING)) {
            if (layer.startsWith("restclient-") || layer.startsWith("webclient-")) {
                try (HttpClientAdapter adapter = Adapters.create(layer, AdapterConfig.defaults(stub.uri()))) {
                    recorded.put(layer, adapter.settings().get("observation"));
                }
                expected.put(layer, layer.endsWith("-actuator") ? "boot-actuator" : "off");
            }
        }
        assertEquals(expected, recorded);
    }

    /** Every {@code http.client.requests} timer's count, whatever its tags. */
    private static long timed(MeterRegistry meters) {
        return meters.find(BootActuator.NAME).timers().stream().mapToLong(Timer::count).sum();
    }

    private static long active(MeterRegistry meters) {
        LongTaskTimer t = meters.find(BootActuator.NAME + ".active").longTaskTimer();
        return t == null ? 0 : t.activeTasks();
    }

    private static String describe(MeterRegistry meters) {
        return meters.getMeters().stream().map(m -> m.getId() + " " + m.measure()).collect(Collectors.joining("; "));
    }

    /** The adapter's own {@link BootActuator}, found by its type in the adapter's class or a superclass. */
    private static MeterRegistry liveMeters(HttpClientAdapter adapter) throws IllegalAccessException {
        for (Class<?> c = adapter.getClass(); c != Object.class; c = c.getSuperclass()) {
            for (var f : c.getDeclaredFields()) {
                if (f.getType() == BootActuator.class) {
                    f.setAccessible(true);
                    BootActuator actuator = (BootActuator) f.get(adapter);
                    assertNotNull(actuator, adapter.name() + " is named -actuator but holds no BootActuator");
                    return actuator.meters();
                }
            }
        }
        throw new IllegalStateException(adapter.getClass().getSimpleName() + " has no BootActuator field");
    }
}
