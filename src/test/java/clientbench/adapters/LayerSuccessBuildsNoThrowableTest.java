package clientbench.adapters;

import static org.junit.jupiter.api.Assertions.assertEquals;

import clientbench.api.AdapterConfig;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Request;
import clientbench.testkit.BoundedSender;
import clientbench.testkit.StubJvm;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A layer's successful request constructs the Throwables of its engine's bare client and Spring's known ones, no more and
 * no fewer: each construction is counted by JFR's {@code jdk.JavaExceptionThrow} (emitted in Throwable's constructor,
 * thrown or not) over the same ok requests through the layer and through the bare client, warm, against a stub in its
 * own JVM. The bare client is the engine's, under every layer between ({@code -actuator} over its unobserved twin).
 * Counts, not timings: a loaded machine moves neither.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LayerSuccessBuildsNoThrowableTest {

    private static final int WARMUP_REQUESTS = 300;
    private static final int MEASURED_REQUESTS = 400;
    private static final int IN_FLIGHT = 8;

    /**
     * Netty's leak detector records the stack of about one buffer in 128 in a Throwable of its own: a sample, not an
     * exception, and as many through a layer as without it over the same engine, give or take chance.
     */
    private static final String LEAK_RECORD = "io.netty.util.ResourceLeakDetector$TraceRecord ";

    /**
     * Throwables Spring itself builds on every ok request, found by a frame of their stack: the layer's cost, not the
     * adapter's, counted exactly so that the test turns red when a release stops building them.
     */
    record SpringsOwn(String frame, int perRequest, String why) {
    }

    private static final Map<String, SpringsOwn> SPRINGS_OWN = Map.of("restclient-jdk", new SpringsOwn(
            "org.springframework.http.client.JdkClientHttpRequest$TimeoutHandler", 3, "the read timeout's TimeoutHandler"
            + " cancels its CompletableFuture when the body closes: a CancellationException, and a CompletionException"
            + " for each of the future's two dependents (its thenRun, and completeOnTimeout's canceller)"));

    @RegisterExtension
    static final StubJvm stub = new StubJvm();

    /** Every Spring layer of the family; each names the client it runs over in its settings ({@code bareClient}). */
    static List<String> layers() {
        return Adapters.family(Adapters.SPRING).stream()
                .filter(name -> name.startsWith("restclient-") || name.startsWith("webclient-")).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("layers")
    void okRequestsThroughTheLayerBuildTheBareEnginesThrowablesAndSpringsKnownOnes(String layer) throws Exception {
        // A deadline no ok request reaches on a loaded machine: every request must be ok for the count to mean anything.
        AdapterConfig config = AdapterConfig.defaults(stub.uri()).withRequestTimeout(Duration.ofSeconds(30));
        String bare;
        List<String> throughLayer;
        try (HttpClientAdapter adapter = Adapters.create(layer, config)) {
            bare = engineBelow(adapter.settings().get("bareClient"), config);
            throughLayer = throwablesBuiltWhileSending(adapter);
        }
        List<String> throughBare;
        try (HttpClientAdapter adapter = Adapters.create(bare, config)) {
            throughBare = throwablesBuiltWhileSending(adapter);
        }
        System.out.println("throwables over " + MEASURED_REQUESTS + " ok requests: " + layer + " " + throughLayer.size()
                + ", " + bare + " " + throughBare.size());
        SpringsOwn own = SPRINGS_OWN.get(layer);
        List<String> bySpring = own == null ? List.of() : throughLayer.stream().filter(st -> st.contains(own.frame())).toList();
        List<String> byTheAdapter = throughLayer.stream().filter(st -> own == null || !st.contains(own.frame())).toList();
        if (own != null) {
            assertEquals(own.perRequest() * MEASURED_REQUESTS, bySpring.size(), () -> own.frame() + " built "
                    + bySpring.size() + " Throwables over " + MEASURED_REQUESTS + " ok requests; expected: " + own.why()
                    + "\n" + bySite(throughLayer));
        }
        assertEquals(throughBare.size(), byTheAdapter.size(), () -> layer + " built " + byTheAdapter.size()
                + " Throwables beyond Spring's known ones over " + MEASURED_REQUESTS + " ok requests, " + bare + " "
                + throughBare.size() + "; by stack:\n" + bySite(byTheAdapter) + "\nthrough " + bare + ":\n"
                + bySite(throughBare));
    }

    /** The engine's bare client under {@code client}: itself, or, for a layer over a layer, the one that layer runs over. */
    private static String engineBelow(String client, AdapterConfig config) {
        try (HttpClientAdapter adapter = Adapters.create(client, config)) {
            String below = adapter.settings().get("bareClient");
            return below == null ? client : engineBelow(below, config);
        }
    }

    /**
     * The stack of each Throwable constructed in the JVM while {@link #MEASURED_REQUESTS} ok requests ran, after a
     * warm-up; a probe built on this thread first proves the count sees constructions (else an empty list is vacuous).
     */
    private static List<String> throwablesBuiltWhileSending(HttpClientAdapter adapter) throws Exception {
        Request request = Request.get(stub.uri(), "/?bytes=5", 5);
        assertEquals(Map.of(Outcome.OK, WARMUP_REQUESTS), BoundedSender.send(adapter, request, WARMUP_REQUESTS, IN_FLIGHT), "warm-up outcomes");
        List<String> stacks = new CopyOnWriteArrayList<>();
        try (RecordingStream events = new RecordingStream()) {
            // Every construction (no throttle); JDK 25 instruments Throwable's constructor only with errors enabled too.
            events.enable("jdk.JavaExceptionThrow").withStackTrace().with("throttle", "off");
            events.enable("jdk.JavaErrorThrow");
            events.onEvent("jdk.JavaExceptionThrow", e -> stacks.add(stack(e)));
            events.startAsync();
            Probe.build();
            Map<Outcome, Integer> outcomes = BoundedSender.send(adapter, request, MEASURED_REQUESTS, IN_FLIGHT);
            events.stop(); // returns once every event recorded so far was handed to onEvent
            assertEquals(Map.of(Outcome.OK, MEASURED_REQUESTS), outcomes, "measured outcomes");
        }
        long probes = stacks.stream().filter(s -> s.contains(Probe.class.getName())).count();
        assertEquals(1, probes, () -> "the probe's one Throwable, as JFR saw it; all seen: " + stacks);
        return stacks.stream().filter(s -> !s.contains(Probe.class.getName()) && !s.startsWith(LEAK_RECORD)).toList();
    }

    private static String stack(RecordedEvent e) {
        String type = e.getClass("thrownClass") == null ? "?" : e.getClass("thrownClass").getName();
        List<RecordedFrame> frames = e.getStackTrace() == null ? List.of() : e.getStackTrace().getFrames();
        return type + " at " + frames.stream()
                .map(f -> f.getMethod().getType().getName() + "." + f.getMethod().getName())
                .collect(Collectors.joining(" < "));
    }

    private static String bySite(List<String> stacks) {
        return stacks.stream().collect(Collectors.groupingBy(s -> s, java.util.TreeMap::new, Collectors.counting()))
                .entrySet().stream().map(e -> "  " + e.getValue() + " x " + e.getKey().substring(0, Math.min(1_000,
                        e.getKey().length()))).collect(Collectors.joining("\n"));
    }

    /** Builds one Throwable, never thrown, in a frame of its own that the count recognises. */
    private static final class Probe {
        static void build() {
            new IllegalStateException("probe: the count sees constructions").getClass();
        }
    }
}
