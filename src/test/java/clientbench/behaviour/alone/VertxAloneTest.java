package clientbench.behaviour.alone;

import clientbench.stub.StubExtension;
import clientbench.stub.StubOptions;
import clientbench.stub.StubServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Vert.x 5's NO cells with the library alone, its HttpClient as {@code createHttpClient} ships it: a request's
 * idleTimeout that stops at the response head (own deadline), a pool of 5 per server (default pool), Netty's 8 KiB
 * limit on a head (big headers), a GET sent as its connection closes, failed (closed in flight), and a stream a GOAWAY
 * refused, failed (h2 goaway).
 */
@Timeout(60)
class VertxAloneTest {

    @RegisterExtension
    final StubExtension stub = new StubExtension();
    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() throws Exception {
        stub.server().close(); // first: the exchanges it never answered end
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    /**
     * vertx, own deadline (headers: stall,trickle never): RequestOptions.idleTimeout 1 s fires on a server that never
     * answers (the control) and stops once the head is in: 1 s + 2 s after their send no stalled request has ended,
     * and each trickled one ends ok with its 10 bytes, 3.6 s or more after its send. A pool of 15: all at once, as the
     * case's 10 on the suite's 64.
     */
    @Test
    void aRequestIdleTimeoutStopsAtTheHead() throws Exception {
        HttpClientAgent client = client(o -> o, new PoolOptions().setHttp1MaxSize(15));
        HeadTimeouts.assertItFiresOnlyBeforeTheHead(stub.server(), (url, key) -> get(client, options(url, key)
                .setIdleTimeout(StubHabits.TIMEOUT.toMillis())), "NoStackTraceTimeoutException");
    }

    /** vertx, default pool (5/64): 64 callers to one server, the pool opens 5 and the rest wait. */
    @Test
    void sixtyFourCallersToOneServerAreHeldToFive() throws Exception {
        HttpClientAgent client = client(o -> o, new PoolOptions());
        int callers = 64;
        for (int i = 0; i < callers; i++) {
            get(client, options(stub.uri() + StubHabits.NEVER, "pool-" + i));
        }
        StubServer s = stub.server();
        StubHabits.until(() -> s.tally().inFlight() >= callers, Duration.ofSeconds(2)); // never, as shipped: bounded
        assertAll("stub " + s.tally().toJson(),
                () -> assertEquals(5, s.tally().peakInFlight(), "the stub held 5 at once"),
                () -> assertEquals(5, StubHabits.reads(s, "pool-"), "and read no more"));
    }

    /** vertx, big headers (&lt;12K): a 6 KiB head is read; 3 of 12 KiB, each sent, fail (maxHeaderSize 8,192). */
    @Test
    void aHeadPastEightKibFails() throws Exception {
        HttpClientAgent client = client(o -> o, new PoolOptions());
        LargeHeads.assertEachTwelveKibHeadFails(stub.server(), (url, key) -> get(client, options(url, key)), "200:100",
                "TooLongHttpHeaderException");
    }

    /**
     * vertx, h2 goaway (109 fail): h2c by prior knowledge, one caller, 40 requests in turn; the GOAWAYs refuse the
     * 20th and 40th streams, unprocessed, and Vert.x fails both.
     */
    @Test
    void aStreamAGoAwayRefusedFails() throws Exception {
        HttpClientAgent client = client(o -> o.setProtocolVersion(HttpVersion.HTTP_2).setHttp2ClearTextUpgrade(false),
                new PoolOptions());
        String url = stub.uri() + "/?goAwayEvery=20";
        RefusedStreams.assertBothFail(stub.server(), key -> get(client, options(url, key)).get(10, TimeUnit.SECONDS));
    }

    /**
     * vertx, closed in flight (GET lost): each answer followed at once by a FIN; Vert.x hands out the connection before
     * it has read the close, and the GET sent on it fails, never sent again (Vert.x has no retry). Control, on a stub of
     * its own: keep-alive off, a connection per request, loses none.
     */
    @Test
    void aGetSentAsItsConnectionClosesFails() throws Exception {
        HttpClientAgent shipped = client(o -> o, new PoolOptions());
        ClosedInFlight.Counts c = ClosedInFlight.run(stub.server(), (method, url, key) -> send(shipped, method, url, key),
                () -> shipped.close().await(10, TimeUnit.SECONDS), ClosedInFlight.ROUNDS, x -> x.getsFailed() >= 1);
        ClosedInFlight.Counts noKeepAlive;
        try (StubServer own = StubServer.start(StubOptions.loopback())) {
            HttpClientAgent once = client(o -> o.setKeepAlive(false), new PoolOptions());
            noKeepAlive = ClosedInFlight.run(own, (method, url, key) -> send(once, method, url, key),
                    () -> once.close().await(10, TimeUnit.SECONDS), 50, x -> false);
        }
        ClosedInFlight.assertAGetLost("as shipped " + c + "; keep-alive off " + noKeepAlive, c,
                () -> assertEquals(0, noKeepAlive.getsFailed() + noKeepAlive.postsFailed(), "a connection each: none fails"));
    }

    /**
     * vertx, unclosed body (5,5): five 500s with 1 MiB bodies, each response paused at its head and forgotten, as the
     * case's caller leaves it; after two collections and a request elsewhere the stub still has the pool's 5
     * connections open (PoolOptions' default 5 per server), and the next request to that server waits for one.
     */
    @Test
    void forgottenPausedResponsesHoldThePoolAfterACollection() throws Exception {
        HttpClientAgent client = client(o -> o, new PoolOptions());
        int pool = new PoolOptions().getHttp1MaxSize();
        try (StubServer elsewhere = StubServer.start(StubOptions.loopback())) {
            int held = ForgottenBodies.heldAfterCollection(stub.server(), elsewhere, pool,
                    (url, key) -> client.request(options(url, key)).compose(req -> req.send()).map(r -> {
                        r.pause(); // read later, and never: the stream stays open
                        r.exceptionHandler(closedAtTheEnd -> { }); // the client's close ends it: nothing to log
                        return r.statusCode();
                    }).await(10, TimeUnit.SECONDS),
                    url -> assertEquals("200:5", get(client, options(url, "housekeeping")).get(10, TimeUnit.SECONDS)));
            assertEquals(5, held, "unclosed body: held 5,5 after GC (NO)");
            ForgottenBodies.assertTheNextWaits(stub.server(), (url, key) -> get(client, options(url, key)).get());
        }
    }

    /**
     * The status, or the failure's class. Vert.x's own timeouts bound the wait for a connection and the exchange, 5 s
     * each, as the case's deadline: now and then one hangs here without them.
     */
    private static String send(HttpClientAgent client, String method, String url, String key) throws Exception {
        return client.request(options(url, key).setMethod(HttpMethod.valueOf(method)).setConnectTimeout(5_000)
                        .setIdleTimeout(5_000))
                .compose(req -> method.equals("POST") ? req.send(Buffer.buffer(new byte[1024])) : req.send())
                .compose(r -> r.body().map(b -> String.valueOf(r.statusCode())))
                .toCompletionStage().toCompletableFuture()
                .handle((o, e) -> e == null ? o : InTurn.failure(e)).get(10, TimeUnit.SECONDS);
    }

    private HttpClientAgent client(UnaryOperator<HttpClientOptions> options, PoolOptions pool) {
        return vertx.createHttpClient(options.apply(new HttpClientOptions()), pool);
    }

    private static RequestOptions options(String url, String key) {
        return new RequestOptions().setAbsoluteURI(url).addHeader(StubHabits.KEY, key);
    }

    /** The status and body length, or the failure's class. */
    private static CompletableFuture<String> get(HttpClientAgent client, RequestOptions options) {
        return client.request(options)
                .compose(req -> req.send().compose(r -> r.body().map(b -> r.statusCode() + ":" + b.length())))
                .toCompletionStage().toCompletableFuture()
                .handle((o, e) -> e == null ? o : InTurn.failure(e));
    }
}
