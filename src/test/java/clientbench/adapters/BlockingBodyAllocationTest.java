package clientbench.adapters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import clientbench.api.AdapterConfig;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Request;
import clientbench.harness.StubProcess;
import java.lang.management.ManagementFactory;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.api.Timeout;
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

    private static StubProcess stub;

    @BeforeAll
    static void startStub() throws Exception {
        stub = StubProcess.start(false, false);
    }

    @AfterAll
    static void stopStub() {
        stub.close();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"apache-vt", "jetty-vt"})
    void smallGetAllocatesLessThanOneBodyBufferPerRequest(String client, TestReporter reporter) throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemoryEnabled(), "this JVM does not count allocation per thread");
        try (HttpClientAdapter adapter = Adapters.create(client, AdapterConfig.defaults(stub.uri()))) {
            Request request = Request.get(stub.uri(), "/?bytes=5", 5);
            assertEquals(0, run(adapter, request, WARMUP_REQUESTS), "failures during warm-up");
            long before = threads.getTotalThreadAllocatedBytes();
            int failures = run(adapter, request, MEASURED_REQUESTS);
            long perRequest = (threads.getTotalThreadAllocatedBytes() - before) / MEASURED_REQUESTS;
            String figure = client + ": " + perRequest + " bytes allocated per 5-byte GET (" + MEASURED_REQUESTS
                    + " requests, " + IN_FLIGHT + " in flight)";
            reporter.publishEntry("bytesPerRequest", figure);
            System.out.println("bytesPerRequest " + figure); // surefire keeps stdout, not report entries
            assertEquals(0, failures, "failures while measuring");
            assertTrue(perRequest < ONE_BODY_BUFFER, client + " allocated " + perRequest + " bytes per request");
        }
    }

    /** Sends {@code n} requests, at most {@link #IN_FLIGHT} at once; returns how many were not ok. */
    private static int run(HttpClientAdapter adapter, Request request, int n) throws InterruptedException {
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        CountDownLatch done = new CountDownLatch(n);
        AtomicInteger failures = new AtomicInteger();
        for (int i = 0; i < n; i++) {
            inFlight.acquire();
            adapter.send(request, (outcome, status, cause) -> {
                if (outcome != Outcome.OK) {
                    failures.incrementAndGet();
                }
                inFlight.release();
                done.countDown();
            });
        }
        assertTrue(done.await(60, TimeUnit.SECONDS), done.getCount() + " requests never reported");
        return failures.get();
    }
}
