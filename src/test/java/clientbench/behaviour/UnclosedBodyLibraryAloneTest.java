package clientbench.behaviour;

import clientbench.stub.StubExtension;
import clientbench.stub.StubServer;
import okhttp3.OkHttpClient;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.WeakReference;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * unclosed-body with each library alone, no adapter: error answers (500, 1 MiB) whose responses the caller forgets,
 * bodies neither read nor closed, the stub shutting its side once a body has left (so a connection still open is one the
 * client holds); then a collection and one request to another stub for the library's housekeeping, as the case does.
 * The stub's count of connections still open, and what the library logged.
 */
@org.junit.jupiter.api.Timeout(60)
class UnclosedBodyLibraryAloneTest {

    static final int LEFT_OPEN = 10;
    private static final String ERROR = "/?status=500&idleClose=fin&idleMs=0&bytes=" + UnclosedBody.BODY_BYTES;

    @RegisterExtension
    final StubExtension leaky = new StubExtension();
    @RegisterExtension
    final StubExtension elsewhere = new StubExtension();

    private URI uri(StubExtension s, String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + s.port() + pathAndQuery);
    }

    /** Collects, asks for {@code housekeeping} elsewhere, settles as the case does: the connections still held. */
    private int heldAfterCollection(Runnable housekeeping) throws InterruptedException {
        System.gc();
        System.gc();
        housekeeping.run();
        Thread.sleep(UnclosedBody.SETTLE.toMillis());
        return leaky.server().openConnections();
    }

    /** The JDK: a body taken as an InputStream, never read nor closed, keeps its connection after its response is gone. */
    @Test
    void jdkHoldsEveryConnectionOfAStreamForgottenAfterACollection() throws Exception {
        java.net.http.HttpClient jdk = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1).build();
        try { // close() would wait for the bodies left open: shutdownNow() ends them
            for (int i = 0; i < LEFT_OPEN; i++) {
                HttpResponse<InputStream> r = jdk.send(HttpRequest.newBuilder(uri(leaky, ERROR)).build(),
                        HttpResponse.BodyHandlers.ofInputStream());
                assertEquals(500, r.statusCode()); // and forgotten
            }
            int held = heldAfterCollection(() -> {
                try {
                    jdk.send(HttpRequest.newBuilder(uri(elsewhere, "/")).build(), HttpResponse.BodyHandlers.discarding());
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertEquals(LEFT_OPEN, held, "unclosed body: held 10,10 after GC (NO)");
        } finally {
            jdk.shutdownNow();
        }
    }

    /**
     * OkHttp finds a call whose response was collected unclosed as it prunes its pool, logs "A connection to ... was
     * leaked", and closes the connection; a call timeout keeps the call in its timer's queue, reachable, until it fires,
     * so nothing is collected before it.
     */
    @Test
    void okHttpReclaimsAndWarnsAboutACollectedResponseUnlessItsCallTimeoutStillHoldsTheCall() throws Exception {
        int heldWithoutTimeout;
        int warnedWithoutTimeout;
        try (LeakWarnings warnings = LeakWarnings.listen()) {
            // Connected on the caller's thread: with fast fallback (the default) a connect runs on a TaskRunner
            // thread, whose idle frame can keep its last task, and that call, reachable (3 of 40 runs, 0 without).
            heldWithoutTimeout = okHttpLeaves(new OkHttpClient.Builder().protocols(List.of(okhttp3.Protocol.HTTP_1_1))
                    .fastFallback(false).build(), true);
            warnedWithoutTimeout = warnings.count();
        }
        int heldWithTimeout = okHttpLeaves(new OkHttpClient.Builder().protocols(List.of(okhttp3.Protocol.HTTP_1_1))
                .callTimeout(Duration.ofSeconds(30)).build(), false);
        assertAll("no call timeout: held " + heldWithoutTimeout + ", warned " + warnedWithoutTimeout
                        + "; callTimeout 30 s: held " + heldWithTimeout,
                () -> assertEquals(0, heldWithoutTimeout, "reclaimed once collected"),
                () -> assertTrue(warnedWithoutTimeout >= 1, "and said so"),
                () -> assertEquals(LEFT_OPEN, heldWithTimeout, "unclosed body, the suite's 30 s: held 10,10 after GC (NO)"));
    }

    /**
     * okhttp, whose calls are enqueued (okhttp-vt's execute() is the test above): a response handed to onResponse and
     * forgotten there, unclosed, under the suite's 30 s call timeout, keeps its connection after a collection too.
     */
    @Test
    void okHttpHoldsEachEnqueuedResponseForgottenUnderItsCallTimeout() throws Exception {
        OkHttpClient ok = new OkHttpClient.Builder().protocols(List.of(okhttp3.Protocol.HTTP_1_1))
                .callTimeout(Duration.ofSeconds(30)).build();
        int before = leaky.server().openConnections();
        for (int i = 0; i < LEFT_OPEN; i++) {
            java.util.concurrent.CompletableFuture<Integer> code = new java.util.concurrent.CompletableFuture<>();
            ok.newCall(new okhttp3.Request.Builder().url(uri(leaky, ERROR).toString()).build()).enqueue(new okhttp3.Callback() {
                @Override
                public void onFailure(okhttp3.Call call, IOException e) {
                    code.completeExceptionally(e);
                }

                @Override
                public void onResponse(okhttp3.Call call, okhttp3.Response response) {
                    code.complete(response.code()); // and forgotten, neither read nor closed
                }
            });
            assertEquals(500, code.get(10, TimeUnit.SECONDS));
        }
        assertEquals(LEFT_OPEN, okHttpHeldAfterCollection(ok, before),
                "unclosed body, the suite's 30 s: held 70,70 after GC (NO)");
    }

    /**
     * Leaves {@link #LEFT_OPEN} responses unclosed on a fresh stub's connections: those still held after the collection.
     * {@code collectable}: the calls are first seen collected by weak references of the test's own, System.gc() being a
     * request the JVM may act on late, so that the library is asked to tidy up only once there is something to find.
     */
    private int okHttpLeaves(OkHttpClient ok, boolean collectable) throws Exception {
        int before = leaky.server().openConnections();
        List<WeakReference<okhttp3.Call>> calls = okHttpForgets(ok);
        if (collectable) {
            long deadline = System.nanoTime() + COLLECTED_WITHIN.toNanos();
            while (calls.stream().anyMatch(c -> c.get() != null) && System.nanoTime() < deadline) {
                System.gc();
                Thread.sleep(50);
            }
            assertEquals(0, calls.stream().filter(c -> c.get() != null).count(), "calls not collected within " + COLLECTED_WITHIN);
        }
        return okHttpHeldAfterCollection(ok, before);
    }

    /** The leaky stub's connections still held after the collection, less {@code before}; then {@code ok} lets go. */
    private int okHttpHeldAfterCollection(OkHttpClient ok, int before) throws InterruptedException {
        int held = heldAfterCollection(() -> {
            try (okhttp3.Response r = ok.newCall(new okhttp3.Request.Builder().url(uri(elsewhere, "/").toString())
                    .build()).execute()) {
                r.body().bytes();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }) - before;
        ok.dispatcher().executorService().shutdown();
        ok.connectionPool().evictAll();
        return held;
    }

    /**
     * {@link #LEFT_OPEN} responses, forgotten: in a frame of their own, which is gone before the collection (an
     * interpreted frame's dead slot would keep the last response, and its call, reachable).
     */
    private List<WeakReference<okhttp3.Call>> okHttpForgets(OkHttpClient ok) throws IOException {
        List<WeakReference<okhttp3.Call>> calls = new ArrayList<>();
        for (int i = 0; i < LEFT_OPEN; i++) {
            okhttp3.Call call = ok.newCall(new okhttp3.Request.Builder().url(uri(leaky, ERROR).toString()).build());
            calls.add(new WeakReference<>(call));
            assertEquals(500, call.execute().code());
        }
        return calls;
    }

    /** Far past a full collection on a busy machine. */
    private static final Duration COLLECTED_WITHIN = Duration.ofSeconds(10);

    /**
     * Apache HttpClient 5's classic client: a CloseableHttpResponse never closed keeps its lease, collected or not; its
     * pool of 5 per route then has none to give, and the next request waits its connection request timeout out.
     */
    @Test
    void apacheClassicHoldsItsFiveLeasesAfterACollectionAndServesNoMore() throws Exception {
        int perRoute = 5; // PoolingHttpClientConnectionManager's default max per route
        try (CloseableHttpClient apache = HttpClients.createDefault()) {
            for (int i = 0; i < perRoute; i++) {
                @SuppressWarnings("resource") // forgotten, as the case's caller does
                var r = apache.executeOpen(null, new HttpGet(uri(leaky, ERROR)), null);
                assertEquals(500, r.getCode());
            }
            int held = heldAfterCollection(() -> {
                try {
                    apache.execute(new HttpGet(uri(elsewhere, "/")), response -> null);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            HttpGet next = new HttpGet(uri(leaky, "/"));
            next.setConfig(RequestConfig.custom().setConnectionRequestTimeout(Timeout.ofSeconds(1)).build());
            assertAll("held " + held,
                    () -> assertEquals(perRoute, held, "unclosed body: held 5,5 after GC (NO)"),
                    () -> assertThrows(org.apache.hc.core5.http.ConnectionRequestTimeoutException.class,
                            () -> apache.execute(next, response -> null), "no lease left for the next request"));
        }
    }
}
