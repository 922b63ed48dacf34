package clientbench.adapters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import clientbench.api.AdapterConfig;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Request;
import clientbench.testkit.BoundedSender;
import clientbench.testkit.StubJvm;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Heap allocated per small GET through a blocking adapter stays under one 16 KiB array, which reading the body with
 * {@code InputStream.transferTo} (a new array per call) alone exceeds. The stub runs in its own JVM, so the bytes
 * counted (all threads, virtual ones on their carriers) are the client's, plus a few dozen of the driver's.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BlockingBodyAllocationTest {

    private static final int WARMUP_REQUESTS = 5_000;
    private static final int MEASURED_REQUESTS = 20_000;
    private static final int IN_FLIGHT = 8;
    private static final long ONE_BODY_BUFFER = 16 * 1024;

    @RegisterExtension
    static final StubJvm stub = new StubJvm();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"apache-vt", "jetty-vt"})
    void smallGetAllocatesLessThanOneBodyBufferPerRequest(String client, TestReporter reporter) throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemoryEnabled(), "this JVM does not count allocation per thread");
        try (HttpClientAdapter adapter = Adapters.create(client, AdapterConfig.defaults(stub.uri()))) {
            Request request = Request.get(stub.uri(), "/?bytes=5", 5);
            assertEquals(Map.of(Outcome.OK, WARMUP_REQUESTS), BoundedSender.send(adapter, request, WARMUP_REQUESTS,
                    IN_FLIGHT), "warm-up outcomes");
            long before = threads.getTotalThreadAllocatedBytes();
            Map<Outcome, Integer> outcomes = BoundedSender.send(adapter, request, MEASURED_REQUESTS, IN_FLIGHT);
            long perRequest = (threads.getTotalThreadAllocatedBytes() - before) / MEASURED_REQUESTS;
            String figure = client + ": " + perRequest + " bytes allocated per 5-byte GET (" + MEASURED_REQUESTS
                    + " requests, " + IN_FLIGHT + " in flight)";
            reporter.publishEntry("bytesPerRequest", figure);
            System.out.println("bytesPerRequest " + figure); // surefire keeps stdout, not report entries
            assertEquals(Map.of(Outcome.OK, MEASURED_REQUESTS), outcomes, "outcomes while measuring");
            assertTrue(perRequest < ONE_BODY_BUFFER, client + " allocated " + perRequest + " bytes per request");
        }
    }
}
