package clientbench.behaviour.alone;

import clientbench.stub.HandshakeStall;
import clientbench.stub.StubExtension;
import clientbench.stub.StubOptions;
import clientbench.stub.StubServer;
import io.netty.channel.ChannelOption;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reactor Netty's NO cells with the library alone, its HttpClient over a pool of the library's defaults: a per-read
 * response timeout against a trickled body (own deadline), its pool of 2 x max(cores, 8) that refuses past twice that
 * waiting (default pool), Netty's 8 KiB limit on a head (big headers), a response timeout that does not cover the TLS
 * handshake (tls stall) and a stream a GOAWAY refused, failed (h2 goaway).
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
        long start = System.nanoTime();
        List<CompletableFuture<String>> calls = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            calls.add(get(client, stub.uri() + StubHabits.TRICKLE, "trickle-" + i));
        }
        Map<String, Integer> outcomes = outcomes(calls);
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertAll(outcomes + " after " + ms + " ms",
                () -> assertEquals(Map.of("200:" + StubHabits.TRICKLE_BYTES, 5), outcomes, "none fired"),
                () -> assertTrue(ms > StubHabits.TIMEOUT.plus(StubHabits.LATE).toMillis(), "past 1 s + 2 s"));
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
        String small = get(client, stub.uri() + "/?bytes=100&headerBytes=6144", "h6k").get(10, TimeUnit.SECONDS);
        List<CompletableFuture<String>> large = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            large.add(get(client, stub.uri() + "/?bytes=100&headerBytes=" + StubHabits.HEAD_BYTES, "h12k-" + i));
        }
        Map<String, Integer> outcomes = outcomes(large);
        StubServer s = stub.server();
        assertAll("6K " + small + ", 12K " + outcomes + "; stub " + s.tally().toJson(),
                () -> assertEquals("200:100", small),
                () -> assertEquals(4, s.tally().largeHeads(), "the stub sent each head"),
                () -> assertEquals(Map.of("TooLongHttpHeaderException", 3), outcomes, "every 12 KiB head failed"));
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
        try (StubServer tls = StubServer.start(StubOptions.loopback().withTls(true));
             HandshakeStall stall = HandshakeStall.stall();
             HandshakeStall trickle = HandshakeStall.trickle(tls.uri(), StubHabits.TRICKLE_MS)) {
            List<CompletableFuture<String>> calls = new ArrayList<>();
            for (HandshakeStall front : List.of(stall, trickle)) {
                for (int i = 0; i < 5; i++) {
                    calls.add(get(client, front.uri() + "/?bytes=5", "tls-" + i));
                }
            }
            Thread.sleep(StubHabits.TIMEOUT.plus(StubHabits.LATE).toMillis());
            long ended = calls.stream().filter(CompletableFuture::isDone).count();
            assertAll("stall " + stall.counts() + ", trickle " + trickle.counts(),
                    () -> assertTrue(stall.counts().helloes() >= 5 && trickle.counts().helloes() >= 5, "each reached"),
                    () -> assertTrue(trickle.counts().bytesTrickled() > 0, "the trickle answered, byte by byte"),
                    () -> assertEquals(0, StubHabits.reads(tls, "tls-"), "no request got through"),
                    () -> assertEquals(0, ended, "none ended within 1 s + 2 s"));
        }
    }

    /**
     * reactor, h2 goaway (96 fail): h2c, one caller, 40 requests in turn; the GOAWAYs refuse the 20th and 40th
     * streams, unprocessed, and Reactor Netty fails both.
     */
    @Test
    void aStreamAGoAwayRefusedFails() throws Exception {
        HttpClient client = client(c -> c.protocol(HttpProtocol.H2C));
        String url = stub.uri() + "/?goAwayEvery=20";
        Map<String, Integer> outcomes = InTurn.run(1, 40, "r-", key -> get(client, url, key).get(10, TimeUnit.SECONDS));
        StubServer s = stub.server();
        assertAll(outcomes + "; stub " + s.tally().toJson(),
                () -> assertEquals(2, s.tally().goAways(), "a GOAWAY at the 20th and the 40th stream"),
                () -> assertEquals(38, outcomes.getOrDefault("200:5", 0)),
                () -> assertEquals(2, InTurn.failed(outcomes), "both refused streams failed"),
                () -> assertEquals(38, StubHabits.reads(s, "r-"), "the stub read every other request, once"));
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
