package clientbench.behaviour.alone;

import clientbench.stub.StubExtension;
import clientbench.stub.StubOptions;
import clientbench.stub.StubServer;
import io.helidon.http.HeaderNames;
import io.helidon.webclient.api.ClientRequest;
import io.helidon.webclient.api.ConnectedSocketChannelInfo;
import io.helidon.webclient.api.ConnectedSocketInfo;
import io.helidon.webclient.api.ConnectionListener;
import io.helidon.webclient.api.HttpClient;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http2.Http2Client;
import io.helidon.webclient.http2.Http2ClientProtocolConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Helidon WebClient 4's NO cells with the library alone, each call blocking on a virtual thread as its users call it: a
 * per-read readTimeout against a trickled body (own deadline) and a TLS handshake held up (tls stall), a stream a
 * GOAWAY refused that never ends (h2 goaway), uploads sent past the HTTP/2 windows the server granted (h2 flow), and a
 * GET sent as its connection closes, failed (closed in flight).
 */
@Timeout(60)
class HelidonAloneTest {

    @RegisterExtension
    final StubExtension stub = new StubExtension();
    private final ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor();

    @AfterEach
    void close() {
        stub.server().close(); // first: the exchanges it never answered end
        callers.shutdownNow();
    }

    /**
     * helidon, own deadline (per-read: trickle never): readTimeout bounds each read, and a body trickled a byte every
     * 400 ms never leaves one waiting 1 s: each of 5 ends ok with its 10 bytes, more than 1 s + 2 s after its send.
     */
    @Test
    void aPerReadTimeoutNeverEndsATrickledBody() throws Exception {
        Http1Client client = Http1Client.builder().readTimeout(StubHabits.TIMEOUT).build();
        TrickledBodies.assertNoneTimesOut(stub.server(), (url, key) -> get(client, url, key));
    }

    /**
     * helidon, tls stall (per-read: stall,trickle never): readTimeout does not cover the handshake, and nothing else
     * ends it: 5 requests each way, the ClientHello never answered or answered a byte every 400 ms, a 2 s connect
     * timeout; none ended within 1 s + 2 s.
     */
    @Test
    void aReadTimeoutDoesNotCoverTheTlsHandshake() throws Exception {
        Http1Client client = Http1Client.builder().readTimeout(StubHabits.TIMEOUT).connectTimeout(Duration.ofSeconds(2))
                .build();
        HeldHandshakes.assertNoneEnds(List.of(HeldHandshakes.Way.STALL, HeldHandshakes.Way.TRICKLE),
                (url, key) -> get(client, url, key));
    }

    /**
     * helidon, h2 goaway (31 fail): h2c by prior knowledge, one caller, requests in turn; the GOAWAY refuses the 20th
     * stream, unprocessed, and Helidon neither sends it again nor fails it: it never ends (the case's failures are its
     * callers' timeouts). 19 answered, the 20th not ended 1 s + 2 s after its send, never read by the stub.
     */
    @Test
    void aStreamAGoAwayRefusedNeverEnds() throws Exception {
        Http2Client client = h2c();
        String url = stub.uri() + "/?goAwayEvery=20";
        Map<String, Integer> first = InTurn.run(1, 19, "r-", key -> get(client, url, key).get(10, TimeUnit.SECONDS));
        CompletableFuture<String> refused = get(client, url, "refused");
        Thread.sleep(StubHabits.TIMEOUT.plus(StubHabits.LATE).toMillis());
        StubServer s = stub.server();
        assertAll(first + ", the 20th " + (refused.isDone() ? refused.join() : "not ended") + "; stub " + s.tally().toJson(),
                () -> assertEquals(Map.of("200:5", 19), first),
                () -> assertEquals(1, s.tally().goAways(), "a GOAWAY at the 20th stream"),
                () -> assertEquals(0, StubHabits.reads(s, "refused"), "which the stub never read"),
                () -> assertEquals(false, refused.isDone(), "and the client never ended"));
    }

    /**
     * helidon, h2 flow (up: 8 fail, 8 unread, 4 overran): as the case sends them, after one GET, four callers each
     * upload 512 KiB twice in turn to a stub reading 16 KiB every 10 ms, its 64 KiB windows (the connection's shared
     * by all) reopened that late; Helidon credits each stream WINDOW_UPDATE to its send window twice, so it sends past
     * the window the stub granted: the stub closes on it (FLOW_CONTROL_ERROR) and the uploads fail, unread to their end
     * (which overruns is a race; two at once did not always). A stream blocked on a window waits
     * flowControlBlockTimeout (15 s by default) on a connection already closed: 2 s here.
     */
    private static final int UPLOADERS = 4;
    private static final int UPLOADS_EACH = 2;

    @Test
    void uploadsOverrunTheWindowTheServerGranted() throws Exception {
        Http2Client client = Http2Client.builder().protocolConfig(Http2ClientProtocolConfig.builder().priorKnowledge(true)
                .flowControlBlockTimeout(Duration.ofSeconds(2)).build()).build();
        byte[] upload = new byte[512 * 1024];
        String url = stub.uri() + "/?bytes=5&readPauseMs=10";
        assertEquals("200:5", get(client, stub.uri() + "/?bytes=5", "warm").get(10, TimeUnit.SECONDS));
        Map<String, Integer> outcomes = InTurn.run(UPLOADERS, UPLOADS_EACH, "up-", key -> call(() -> client.post().uri(URI.create(url))
                .header(HeaderNames.create(StubHabits.KEY), key).submit(upload)).get(20, TimeUnit.SECONDS));
        StubServer.Tally t = stub.server().tally();
        assertAll(outcomes + "; stub " + t.toJson(),
                () -> assertTrue(t.readPauses() > 0, "reached: the stub held its window shut"),
                () -> assertTrue(t.flowControlErrors() >= 1, "an upload overran the window"),
                () -> assertTrue(InTurn.failed(outcomes) >= 1, "and failed"),
                () -> assertTrue(t.pausedBodies() <= UPLOADERS * UPLOADS_EACH - InTurn.failed(outcomes),
                        "no failed upload read to its end"));
    }

    /**
     * helidon, closed in flight (GET lost): each answer followed at once by a FIN; the connection cache hands out the
     * connection before its reader has seen the close, and the GET sent on it fails, never sent again (Helidon has no
     * retry). Control, on a stub of its own: keepAlive(false), a connection per request, loses none.
     */
    @Test
    void aGetSentAsItsConnectionClosesFails() throws Exception {
        Sockets sockets = new Sockets();
        Http1Client shipped = Http1Client.builder().connectionListener(sockets).build();
        ClosedInFlight.Counts c = ClosedInFlight.run(stub.server(), (method, url, key) -> send(shipped, method, url, key),
                () -> sockets.close(shipped), ClosedInFlight.ROUNDS, x -> x.getsFailed() >= 1);
        ClosedInFlight.Counts noKeepAlive;
        try (StubServer own = StubServer.start(StubOptions.loopback())) {
            Sockets onceSockets = new Sockets();
            Http1Client once = Http1Client.builder().keepAlive(false).connectionListener(onceSockets).build();
            noKeepAlive = ClosedInFlight.run(own, (method, url, key) -> send(once, method, url, key),
                    () -> onceSockets.close(once), 50, x -> false);
        }
        ClosedInFlight.assertAGetLost("as shipped " + c + "; keepAlive(false) " + noKeepAlive, c,
                () -> assertEquals(0, noKeepAlive.getsFailed() + noKeepAlive.postsFailed(), "a connection each: none fails"));
    }

    /**
     * Every socket the client connects: Helidon leaves open a connection whose exchange failed past its status line,
     * in no cache, so closing the client's cache is not enough to close them all.
     */
    private static final class Sockets implements ConnectionListener {
        private final Set<Socket> connected = ConcurrentHashMap.newKeySet();

        @Override
        public void socketConnected(ConnectedSocketInfo info) {
            connected.add(info.socket());
        }

        @Override
        public void socketChannelConnected(ConnectedSocketChannelInfo info) {
            // Unix domain sockets only: none here
        }

        void close(Http1Client client) throws IOException {
            client.closeResource();
            for (Socket s : connected) {
                s.close();
            }
        }
    }

    /**
     * helidon, unclosed body: Helidon keeps no hold on a connection whose response the caller forgets, neither read nor
     * closed; once the response is collected the JDK's socket cleaner closes it, so after a collection and a request
     * elsewhere the stub has none of the 10 open. Control, on a stub of its own: the same responses kept by the caller
     * hold all 10.
     */
    @Test
    void forgottenResponsesLeaveTheirConnectionsToTheCollector() throws Exception {
        Http1Client client = Http1Client.builder().build();
        List<HttpClientResponse> kept = new ArrayList<>();
        try (StubServer elsewhere = StubServer.start(StubOptions.loopback());
             StubServer keeping = StubServer.start(StubOptions.loopback())) {
            ForgottenBodies.Request housekeeping = url -> assertEquals("200:5", get(client, url, "housekeeping")
                    .get(10, TimeUnit.SECONDS));
            int heldKept = ForgottenBodies.heldAfterCollection(keeping, elsewhere, ForgottenBodies.LEFT_OPEN,
                    (url, key) -> callers.submit(() -> {
                        HttpClientResponse r = request(client, url, key);
                        kept.add(r);
                        return r.status().code();
                    }).get(10, TimeUnit.SECONDS), housekeeping);
            ForgottenBodies.heldAfterCollection(stub.server(), elsewhere, ForgottenBodies.LEFT_OPEN,
                    (url, key) -> callers.submit(() -> request(client, url, key).status().code())
                            .get(10, TimeUnit.SECONDS), housekeeping);
            boolean noneHeld = ForgottenBodies.untilCollected(() -> stub.server().openConnections() == 0);
            assertAll("kept: held " + heldKept + "; forgotten: held " + stub.server().openConnections(),
                    () -> assertEquals(ForgottenBodies.LEFT_OPEN, heldKept, "the caller's own: each held"),
                    () -> assertTrue(noneHeld, "unclosed body: none held after GC"));
            kept.forEach(HttpClientResponse::close);
        }
    }

    private static HttpClientResponse request(Http1Client client, String url, String key) {
        return client.get().uri(URI.create(url)).header(HeaderNames.create(StubHabits.KEY), key).request();
    }

    /** The status alone, or the failure's class. */
    private String send(Http1Client client, String method, String url, String key) throws Exception {
        String got = call(() -> method.equals("POST")
                ? client.post().uri(URI.create(url)).header(HeaderNames.create(StubHabits.KEY), key).submit(new byte[1024])
                : client.get().uri(URI.create(url)).header(HeaderNames.create(StubHabits.KEY), key).request())
                .get(10, TimeUnit.SECONDS);
        return got.replaceFirst(":.*", "");
    }

    private static Http2Client h2c() {
        return Http2Client.builder().protocolConfig(Http2ClientProtocolConfig.builder().priorKnowledge(true).build()).build();
    }

    private <R extends ClientRequest<R>> CompletableFuture<String> get(HttpClient<R> client, String url, String key) {
        return call(() -> client.get().uri(URI.create(url)).header(HeaderNames.create(StubHabits.KEY), key).request());
    }

    /** Runs a blocking exchange on its own virtual thread: the status and the body's length, or the failure's class. */
    private CompletableFuture<String> call(Supplier<HttpClientResponse> exchange) {
        return CompletableFuture.supplyAsync(() -> {
            try (HttpClientResponse r = exchange.get()) {
                return r.status().code() + ":" + r.entity().as(byte[].class).length;
            } catch (RuntimeException e) {
                return InTurn.failure(e);
            }
        }, callers);
    }

    private static Map<String, Integer> outcomes(List<CompletableFuture<String>> calls) throws Exception {
        Map<String, Integer> out = new TreeMap<>();
        for (CompletableFuture<String> c : calls) {
            out.merge(c.get(20, TimeUnit.SECONDS), 1, Integer::sum);
        }
        return out;
    }
}
