package clientbench.behaviour.alone;

import clientbench.stub.StubExtension;
import clientbench.stub.StubOptions;
import clientbench.stub.StubServer;
import org.asynchttpclient.AsyncHttpClient;
import org.asynchttpclient.BoundRequestBuilder;
import org.asynchttpclient.DefaultAsyncHttpClient;
import org.asynchttpclient.DefaultAsyncHttpClientConfig;
import org.asynchttpclient.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * AsyncHttpClient 3's NO cells with the library alone, as its config builder ships it (HTTP/2 cleartext turned on where
 * the case speaks h2c): a POST sent again after its connection closed under it (idle race) or as its close was in flight
 * (closed in flight), Netty's 8 KiB limit on a response head (big headers), a request past the server's stream limit
 * (h2 streams) and a stream a GOAWAY refused (h2 goaway), each failed.
 */
@Timeout(60)
class AhcAloneTest {

    @RegisterExtension
    final StubExtension stub = new StubExtension();
    private final List<AsyncHttpClient> clients = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AsyncHttpClient c : clients) {
            c.close();
        }
    }

    /**
     * ahc, idle race (POST x2): the stub closes the idle connection as the POST's head arrives, unanswered; AHC
     * (maxRequestRetry 5 by default) sends it again on a new connection, and the stub reads it twice.
     */
    @Test
    void aPostWhoseConnectionClosedUnderItsHeadIsSentTwice() throws Exception {
        AsyncHttpClient client = client(b -> b);
        IdleRace.assertThePostIsSentTwice(stub.server(), (url, key) -> outcome(keyed(client.prepareGet(url), key)),
                (url, key) -> outcome(keyed(client.preparePost(url).setBody(new byte[1024]), key)));
    }

    /**
     * ahc, closed in flight (POST x2 on a few of 500): each answer followed at once by a FIN; a POST written on that
     * connection before AHC has read the close is sent again on a new one (maxRequestRetry 5), whatever its method. A
     * race, so up to four times the case's rounds. Control, on a stub of its own: with maxRequestRetry(0) none twice.
     */
    @Test
    void aPostSentAsItsConnectionClosesIsSentAgain() throws Exception {
        AsyncHttpClient shipped = client(b -> b);
        ClosedInFlight.Counts asShipped = closedInFlight(stub.server(), shipped, c -> c.postsTwice() >= 1);
        ClosedInFlight.Counts noRetry;
        try (StubServer own = StubServer.start(StubOptions.loopback())) {
            noRetry = closedInFlight(own, client(b -> b.setMaxRequestRetry(0)), c -> c.postsFailed() >= 3);
        }
        assertAll("as shipped " + asShipped + "; maxRequestRetry(0) " + noRetry,
                () -> assertTrue(asShipped.postsTwice() >= 1, "closed in flight: POST n/N x2 (NO)"),
                () -> assertTrue(noRetry.postsFailed() >= 1, "without the retry the close fails the POSTs"),
                () -> assertEquals(0, noRetry.postsTwice(), "and sends none twice"));
    }

    private static ClosedInFlight.Counts closedInFlight(StubServer s, AsyncHttpClient client,
                                                        Predicate<ClosedInFlight.Counts> enough) throws Exception {
        return ClosedInFlight.run(s, (method, url, key) -> outcome(keyed(method.equals("POST")
                ? client.preparePost(url).setBody(new byte[1024]) : client.prepareGet(url), key)),
                client::close, 4 * ClosedInFlight.ROUNDS, enough);
    }

    /**
     * ahc, big headers (&lt;12K): a 6 KiB head is read, each of 3 heads of 12 KiB the stub sent fails at once: Netty's
     * HttpObjectDecoder refuses a head past AHC's httpClientCodecMaxHeaderSize, 8,192 bytes by default.
     */
    @Test
    void aHeadPastEightKibFails() throws Exception {
        AsyncHttpClient client = client(b -> b);
        LargeHeads.assertEachTwelveKibHeadFails(stub.server(), (url, key) -> send(keyed(client.prepareGet(url), key)),
                "200", "TooLongHttpHeaderException");
    }

    /**
     * ahc, h2 streams (296 fail): h2c to a server allowing 10 streams; 10 requests hold them (the stub sees 10 open
     * on the connection) and an 11th fails inside the client, "stream channel closed unexpectedly", never sent.
     */
    @Test
    void aRequestPastTheServersStreamLimitFails() throws Exception {
        try (StubServer limited = StubServer.start(new StubOptions("127.0.0.1", 0, 1, false, false, 10))) {
            AsyncHttpClient client = client(b -> b.setHttp2Enabled(true).setHttp2CleartextEnabled(true));
            assertEquals("200", outcome(keyed(client.prepareGet(limited.uri() + "/"), "settings")),
                    "the server's SETTINGS known from here");
            String url = limited.uri() + "/?delayMs=2000";
            List<CompletableFuture<String>> held = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                held.add(send(keyed(client.prepareGet(url), "held-" + i)));
            }
            StubHabits.until(() -> limited.tally().inFlight() == 10, Duration.ofSeconds(5));
            String eleventh = outcome(keyed(client.prepareGet(url), "eleventh"));
            List<String> first = new ArrayList<>();
            for (CompletableFuture<String> c : held) {
                first.add(c.get(10, TimeUnit.SECONDS));
            }
            assertAll(eleventh + "; " + first + "; stub " + limited.stats().toJson(),
                    () -> assertEquals(10, limited.stats().peakStreams(), "10 streams open at once"),
                    () -> assertEquals("IOException: HTTP/2 stream channel closed unexpectedly", eleventh),
                    () -> assertEquals(0, StubHabits.reads(limited, "eleventh"), "never sent"));
        }
    }

    /**
     * ahc, h2 goaway (196 fail): h2c, one caller, 40 requests in turn; the GOAWAYs refuse the 20th and 40th
     * streams, unprocessed, and AHC fails both ("stream channel closed unexpectedly") whatever maxRequestRetry.
     */
    @Test
    void aStreamAGoAwayRefusedFailsUnsent() throws Exception {
        AsyncHttpClient client = client(b -> b.setHttp2Enabled(true).setHttp2CleartextEnabled(true));
        String url = stub.uri() + "/?goAwayEvery=20";
        Map<String, Integer> outcomes = RefusedStreams.assertBothFail(stub.server(),
                key -> outcome(keyed(client.prepareGet(url), key)));
        assertEquals(Map.of("200", 38, "IOException: HTTP/2 stream channel closed unexpectedly", 2), outcomes,
                "each as a stream closed unexpectedly");
    }

    private AsyncHttpClient client(UnaryOperator<DefaultAsyncHttpClientConfig.Builder> change) {
        AsyncHttpClient c = new DefaultAsyncHttpClient(change.apply(new DefaultAsyncHttpClientConfig.Builder()).build());
        clients.add(c);
        return c;
    }

    private static BoundRequestBuilder keyed(BoundRequestBuilder b, String key) {
        return b.setHeader(StubHabits.KEY, key);
    }

    private static CompletableFuture<String> send(BoundRequestBuilder b) {
        return b.execute().toCompletableFuture().handle((r, e) -> e == null ? String.valueOf(r.getStatusCode()) : failure(e));
    }

    /** The status, or the failure: its class, and its message for an IOException. */
    private static String outcome(BoundRequestBuilder b) {
        try {
            Response r = b.execute().get(10, TimeUnit.SECONDS);
            return String.valueOf(r.getStatusCode());
        } catch (Exception e) {
            return failure(e);
        }
    }

    private static String failure(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && !(t instanceof io.netty.handler.codec.TooLongFrameException)) {
            t = t.getCause();
        }
        return t.getClass().equals(java.io.IOException.class) ? "IOException: " + t.getMessage() : t.getClass().getSimpleName();
    }
}
