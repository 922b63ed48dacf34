package clientbench.adapters.spring;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The observation a Spring Boot 4.0 or 4.1 application with Actuator and no metrics exporter gives every RestClient and
 * WebClient request: an {@link ObservationRegistry} as its auto-configuration builds it (ObservationAutoConfiguration,
 * MetricsAutoConfiguration, SimpleMetricsExportAutoConfiguration, HttpClientMetricsAutoConfiguration), without Boot.
 */
final class BootActuator implements AutoCloseable {

    /** The {@code observation} setting: which application the layer stands for, Boot without Actuator or with it. */
    static final String OFF = "off";
    static final String BOOT_ACTUATOR = "boot-actuator";

    /** management.observations.http.client.requests.name's default: the observation's and the timer's name. */
    static final String NAME = "http.client.requests";

    /** management.metrics.web.client.max-uri-tags's default. */
    private static final int MAX_URI_TAGS = 100;

    private final SimpleMeterRegistry meters;
    private final ObservationRegistry registry;

    /**
     * In the order of Boot's ObservationRegistryConfigurer: predicates, handlers (the metrics group's first-matching
     * composite), filters. The predicate and filter are Boot's PropertiesObservationFilterPredicate without properties.
     */
    BootActuator() {
        meters = new SimpleMeterRegistry(); // Boot's: SimpleConfig's defaults, Clock.SYSTEM
        meters.config().meterFilter(MeterFilter.maximumAllowableTags(NAME, "uri", MAX_URI_TAGS, MeterFilter.deny()));
        registry = ObservationRegistry.create();
        registry.observationConfig()
                .observationPredicate((name, context) -> true)
                .observationHandler(new ObservationHandler.FirstMatchingCompositeObservationHandler(
                        new DefaultMeterObservationHandler(meters)))
                .observationFilter(context -> context);
    }

    ObservationRegistry registry() {
        return registry;
    }

    /** The registry the observations' meters are in, live. */
    MeterRegistry meters() {
        return meters;
    }

    /**
     * Records {@code observation} ({@link #OFF} or {@link #BOOT_ACTUATOR}), {@code observationSetup} (what is built) and,
     * observed, {@code observationMeters}: the meters the observations have registered so far, read live.
     */
    static void record(Map<String, String> settings, BootActuator actuator) {
        if (actuator == null) {
            settings.put("observation", OFF);
            settings.put("observationSetup", "Spring's default ObservationRegistry.NOOP, as Boot without Actuator");
            return;
        }
        settings.put("observation", BOOT_ACTUATOR);
        settings.put("observationSetup", "ObservationRegistry.create() with DefaultMeterObservationHandler (no ignored"
                + " meters: a timer and a long task timer per request) in a FirstMatchingCompositeObservationHandler,"
                + " over a SimpleMeterRegistry, " + NAME + " uri tags capped at " + MAX_URI_TAGS + ", Boot's always-true"
                + " predicate and no-op filter");
        String seen = actuator.meters.getMeters().stream().map(m -> m.getId().getName() + " (" + type(m) + ")")
                .distinct().sorted().collect(Collectors.joining(", "));
        settings.put("observationMeters", seen.isEmpty() ? "none" : seen);
    }

    private static String type(Meter m) {
        return m.getId().getType().name().toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public void close() {
        meters.close();
    }
}
