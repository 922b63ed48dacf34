package clientbench.behaviour.alone;

import clientbench.stub.StubExtension;
import clientbench.stub.StubOptions;
import clientbench.stub.StubServer;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelOption;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Mono;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Reactor Netty's NO cells with the library alone, its HttpClient over a pool of the library's defaults: a per-read
 * response timeout against a trickled body (own deadline), its pool of 2 x max(cores, 8) that refuses past twice that
 * waiting (default pool), Netty's 8 KiB limit on a head (big headers), a response timeout that does not cover the TLS
 * handshake (tls stall), a stream a GOAWAY refused, failed (h2 goaway) and a GET written as its connection closed,
 * lost (closed in flight).
 */
@Timeout(60)
class ReactorAloneTest {

    /** ConnectionProvider's documented defaults: 2 x max(cores, 8) connections, twice that many waiting. */
    private static final int MAX_CONNECTIONS = 2 * Math.max(Runtime.getRuntime().availableProcessors(), 8);
    private static final int PENDING = 2 * MAX_CONNECTIONS;

    @RegisterExtension
    final StubExtension stub = new StubExtension();
    private final List<ConnectionProvider> pools = new ArrayList<>();

    @AfterEach
    void close() {
        stub.server().close(); // first: the exchanges it never answered end
        pools.forEach(ConnectionProvider::dispose);
    }

    /**
     * reactor, own deadline (per-read: trickle never): responseTimeout bounds each read, and a body trickled a byte
     * every 400 ms never leaves one waiting 1 s: each of 5 ends ok with its 10 bytes, 3.6 s or more after its send.
     */
    @Test
    void aPerReadResponseTimeoutNeverEndsATrickledBody() throws Exception {
        HttpClient client = client(c -> c.responseTimeout(StubHabits.TIMEOUT));
        TrickledBodies.assertNoneTimesOut(stub.server(), (url, key) -> get(client, url, key));
    }

    /**
     * reactor, default pool (16/64, 16 refused): 64 callers to one host; the pool opens 16 connections (the stub holds
     * 16), queues 32 and refuses the other 16 at once (PoolAcquirePendingLimitException).
     */
    @Test
    void sixtyFourCallersAreHeldToTheDefaultPoolAndTheRestPastItsQueueRefused() throws Exception {
        HttpClient client = client(c -> c);
        int callers = 64;
        List<CompletableFuture<String>> calls = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            calls.add(get(client, stub.uri() + StubHabits.NEVER, "pool-" + i));
        }
        StubServer s = stub.server();
        StubHabits.until(() -> s.tally().inFlight() >= callers, Duration.ofSeconds(2)); // never, as shipped: bounded
        Map<String, Integer> early = new TreeMap<>();
        calls.stream().filter(CompletableFuture::isDone).forEach(c -> early.merge(c.join(), 1, Integer::sum));
        assertAll("refused " + early + "; stub " + s.tally().toJson(),
                () -> assertEquals(MAX_CONNECTIONS, s.tally().peakInFlight(), "the stub held 2 x max(cores, 8)"),
                () -> assertEquals(Map.of("PoolAcquirePendingLimitException", callers - MAX_CONNECTIONS - PENDING), early,
                        "those past the queue refused at once"));
    }

    /** reactor, big headers (&lt;12K): a 6 KiB head is read; 3 of 12 KiB, each sent, fail at once (Netty's 8,192). */
    @Test
    void aHeadPastEightKibFails() throws Exception {
        HttpClient client = client(c -> c);
        LargeHeads.assertEachTwelveKibHeadFails(stub.server(), (url, key) -> get(client, url, key), "200:100",
                "TooLongHttpHeaderException");
    }

    /**
     * reactor, tls stall (per-read: stall,trickle never): responseTimeout starts once the request is sent, the connect
     * timeout (the suite's 2 s) ends at the TCP connect, and the handshake's own 10 s timeout is far past: 5 requests
     * each way, the ClientHello never answered or answered a byte every 400 ms; none ended within 1 s + 2 s.
     */
    @Test
    void aResponseTimeoutDoesNotCoverTheTlsHandshake() throws Exception {
        HttpClient client = client(c -> c.responseTimeout(StubHabits.TIMEOUT).secure()
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 2_000));
        HeldHandshakes.assertNoneEnds(List.of(HeldHandshakes.Way.STALL, HeldHandshakes.Way.TRICKLE),
                (url, key) -> get(client, url, key));
    }

    /**
     * reactor, h2 goaway (96 fail): h2c, one caller, 40 requests in turn; the GOAWAYs refuse the 20th and 40th
     * streams, unprocessed, and Reactor Netty fails both.
     */
    @Test
    void aStreamAGoAwayRefusedFails() throws Exception {
        HttpClient client = client(c -> c.protocol(HttpProtocol.H2C));
        String url = stub.uri() + "/?goAwayEvery=20";
        RefusedStreams.assertBothFail(stub.server(), key -> get(client, url, key).get(10, TimeUnit.SECONDS));
    }

    /**
     * reactor, unclosed body (16,16): 500s with 1 MiB bodies whose connection the caller takes with the head
     * (responseConnection) and forgets, neither reading nor disposing it; after two collections and a request elsewhere
     * the stub still has each open: the pool never gets them back.
     */
    @Test
    void forgottenConnectionsAreHeldAfterACollection() throws Exception {
        HttpClient client = client(c -> c);
        try (StubServer elsewhere = StubServer.start(StubOptions.loopback())) {
            int held = ForgottenBodies.heldAfterCollection(stub.server(), elsewhere, ForgottenBodies.LEFT_OPEN,
                    (url, key) -> client.headers(h -> h.set(StubHabits.KEY, key)).get().uri(url)
                            .responseConnection((r, connection) -> Mono.just(r.status().code()))
                            .single().toFuture().get(10, TimeUnit.SECONDS),
                    url -> assertEquals("200:5", get(client, url, "housekeeping").get(10, TimeUnit.SECONDS)));
            assertEquals(ForgottenBodies.LEFT_OPEN, held, "unclosed body: held 16,16 after GC (NO)");
        }
    }

    /**
     * reactor, closed in flight (GET n/N lost): rounds of a 1 KiB POST then a GET, each sent as the last answer is in,
     * the stub's FIN in flight. Reactor Netty sends again only a request whose connection closed before it was written,
     * so a GET written as the FIN came fails (PrematureCloseException) and is lost; up to 5,000 rounds, until one is.
     */
    @Test
    void aGetSentAsItsConnectionClosesFails() throws Exception {
        ConnectionProvider pool = ConnectionProvider.builder("alone").build();
        pools.add(pool);
        HttpClient client = HttpClient.create(pool);
        ClosedInFlight.Counts c = ClosedInFlight.run(stub.server(), (method, url, key) -> {
            HttpClient keyed = client.headers(h -> h.set(StubHabits.KEY, key));
            HttpClient.ResponseReceiver<?> sent = method.equals("POST")
                    ? keyed.post().uri(url).send(Mono.just(Unpooled.wrappedBuffer(new byte[1024])))
                    : keyed.get().uri(url);
            return sent.responseSingle((r, body) -> body.asByteArray().defaultIfEmpty(new byte[0])
                            .map(b -> String.valueOf(r.status().code())))
                    .toFuture().handle((o, e) -> e == null ? o : innermost(e)).get(10, TimeUnit.SECONDS);
        }, pool::dispose, 5_000, x -> x.getsFailed() >= 1);
        ClosedInFlight.assertAGetLost(c.toString(), c);
    }

    /** HttpClient.create over a pool of the library's defaults, of this test's own. */
    private HttpClient client(UnaryOperator<HttpClient> change) {
        ConnectionProvider pool = ConnectionProvider.builder("alone").build();
        pools.add(pool);
        return change.apply(HttpClient.create(pool));
    }

    /** The status and body length, or the failure's innermost class. */
    private static CompletableFuture<String> get(HttpClient client, String url, String key) {
        return client.headers(h -> h.set(StubHabits.KEY, key)).get().uri(url)
                .responseSingle((r, body) -> body.asByteArray().defaultIfEmpty(new byte[0])
                        .map(b -> r.status().code() + ":" + b.length))
                .toFuture().handle((o, e) -> e == null ? o : innermost(e));
    }

    private static String innermost(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName();
    }

    private static Map<String, Integer> outcomes(List<CompletableFuture<String>> calls) throws Exception {
        Map<String, Integer> out = new TreeMap<>();
        for (CompletableFuture<String> c : calls) {
            out.merge(c.get(20, TimeUnit.SECONDS), 1, Integer::sum);
        }
        return out;
    }
}
