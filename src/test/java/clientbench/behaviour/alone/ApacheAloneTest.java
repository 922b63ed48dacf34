package clientbench.behaviour.alone;

import clientbench.stub.StubExtension;
import clientbench.stub.StubOptions;
import clientbench.stub.StubServer;
import org.apache.hc.client5.http.async.methods.AbstractBinResponseConsumer;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;
import org.apache.hc.client5.http.async.methods.SimpleRequestProducer;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Apache HttpClient 5's NO cells with the library alone, its async client ({@code apache}) and its classic one
 * ({@code apache-vt}, each call on a virtual thread), as their builders ship them: a POST on a connection the server
 * closed while idle (stale conn), a per-read response timeout against a trickled body (own deadline) and a per-read
 * handshake timeout against a trickled handshake (tls stall), the pool's 5 per route (default pool) and 25 in all,
 * shared by every route (slow host), and the async client's GET sent as its connection closes, failed (closed in
 * flight).
 */
@org.junit.jupiter.api.Timeout(60)
class ApacheAloneTest {

    /** The pools' documented defaults: max per route and max total. */
    private static final int PER_ROUTE = 5;
    private static final int IN_ALL = 25;

    @RegisterExtension
    final StubExtension stub = new StubExtension();
    private final List<Closeable> clients = new ArrayList<>();
    private final ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor();

    /** The two clients, each sending a GET the way its users do; the status, or the failure's class. */
    enum Client {
        ASYNC, CLASSIC
    }

    @AfterEach
    void close() throws Exception {
        stub.server().close(); // first: the exchanges it never answered end, and the clients close at once
        callers.shutdownNow();
        for (Closeable c : clients) {
            if (c instanceof CloseableHttpAsyncClient a) { // a graceful close first: an immediate one logs an error
                a.close(CloseMode.GRACEFUL);
                a.awaitShutdown(TimeValue.ofSeconds(2));
                a.close(CloseMode.IMMEDIATE);
            } else {
                c.close();
            }
        }
    }

    /**
     * apache-vt, stale conn (4 failed): the classic pool checks an idle connection only after 2 s idle, so a POST sent
     * 500 ms after the server closed it (FIN or RST) fails; the library's retry strategy resends the GET, not the POST.
     * Two rounds each, as the case: the stub read no POST, each written only to a connection it had closed.
     */
    @ParameterizedTest
    @ValueSource(strings = {"fin", "rst"})
    void aPostOnAConnectionTheServerClosedWhileIdleFails(String close) throws Exception {
        CloseableHttpClient client = classic(pool -> pool, RequestConfig.DEFAULT);
        String url = stub.uri() + "/?idleClose=" + close + "&idleMs=100";
        Map<String, Integer> posts = new TreeMap<>();
        Map<String, Integer> gets = new TreeMap<>();
        classicGet(client, url, "idle-from-here");
        for (int round = 1; round <= 2; round++) {
            Thread.sleep(StubHabits.IDLE.toMillis());
            posts.merge(classicPost(client, url, "post-" + round), 1, Integer::sum);
            classicGet(client, url, "idle-after-post-" + round);
            Thread.sleep(StubHabits.IDLE.toMillis());
            gets.merge(classicGet(client, url, "get-" + round), 1, Integer::sum);
            classicGet(client, url, "idle-after-get-" + round);
        }
        StubServer s = stub.server();
        assertAll("posts " + posts + ", gets " + gets + "; stub " + s.tally().toJson(),
                () -> assertEquals(4, s.tally().idleCloses(), "the stub closed each idle connection"),
                () -> assertEquals(Map.of("NoHttpResponseException", 2), close.equals("fin") ? posts : Map.of(
                        "NoHttpResponseException", posts.getOrDefault("NoHttpResponseException", 0)
                                + posts.getOrDefault("SocketException", 0)), "every POST failed"),
                () -> assertEquals(0, StubHabits.reads(s, "post-"), "written to closed connections only: never resent"),
                () -> assertEquals(Map.of("200:5", 2), gets, "every GET resent and answered"));
    }

    /**
     * apache and apache-vt, own deadline (per-read: trickle never): responseTimeout bounds each read, and a body
     * trickled a byte every 400 ms never leaves a read waiting 1 s: every request ends ok, its 10 bytes read, each
     * 3.6 s or more after its send (the stub's own timer), past its deadline and the 2 s bound.
     */
    @ParameterizedTest
    @EnumSource(Client.class)
    void aPerReadResponseTimeoutNeverEndsATrickledBody(Client kind) throws Exception {
        RequestConfig perRead = RequestConfig.custom().setResponseTimeout(Timeout.of(StubHabits.TIMEOUT)).build();
        if (kind == Client.CLASSIC) {
            CloseableHttpClient client = classic(pool -> pool, perRead);
            TrickledBodies.assertNoneTimesOut(stub.server(),
                    (url, key) -> timed(() -> classicGet(client, url, key)).thenApply(Ended::outcome));
        } else {
            CloseableHttpAsyncClient client = async(pool -> pool, perRead);
            TrickledBodies.assertNoneTimesOut(stub.server(),
                    (url, key) -> asyncGet(client, url, key).thenApply(Ended::outcome));
        }
    }

    /**
     * apache and apache-vt, tls stall (per-read: trickle never): the handshake timeout (by default the connect timeout,
     * here the suite's 2 s) bounds each read of the handshake; a server answering a byte every 400 ms holds it for
     * minutes. No request ended 1 s + 2 s after its send, though the front sent each connection bytes throughout.
     */
    @ParameterizedTest
    @EnumSource(Client.class)
    void aPerReadHandshakeTimeoutNeverEndsATrickledHandshake(Client kind) throws Exception {
        RequestConfig perRead = RequestConfig.custom().setResponseTimeout(Timeout.of(StubHabits.TIMEOUT)).build();
        ConnectionConfig connect = ConnectionConfig.custom().setConnectTimeout(Timeout.ofSeconds(2)).build();
        if (kind == Client.CLASSIC) {
            CloseableHttpClient client = classic(pool -> pool.setDefaultConnectionConfig(connect), perRead);
            HeldHandshakes.assertNoneEnds(List.of(HeldHandshakes.Way.TRICKLE),
                    (url, key) -> timed(() -> classicGet(client, url, key)).thenApply(Ended::outcome));
        } else {
            CloseableHttpAsyncClient client = async(pool -> pool.setDefaultConnectionConfig(connect), perRead);
            HeldHandshakes.assertNoneEnds(List.of(HeldHandshakes.Way.TRICKLE),
                    (url, key) -> asyncGet(client, url, key).thenApply(Ended::outcome));
        }
    }

    /**
     * apache, 1k timeouts (2 left): the async client has no timeout over the whole exchange, so a caller ends a late
     * one with {@code Future.cancel}, as the Future's users do. Cancelled on a kept-alive connection, an exchange the
     * stub never answers leaves that connection open, its request unanswered and its lease held: 5 connections kept
     * alive (the pool's 5 per route), 5 such exchanges cancelled 1 s after their send, and the pool serves no more.
     */
    @Test
    void exchangesCancelledOnKeptAliveConnectionsKeepThemAndTheirLeases() throws Exception {
        CloseableHttpAsyncClient client = async(pool -> pool, RequestConfig.DEFAULT);
        StubServer s = stub.server();
        for (CompletableFuture<Ended> warm : sendMore(Client.ASYNC, List.of(stub.uri()), PER_ROUTE, "/?delayMs=200", "warm-")) {
            warm.get(10, TimeUnit.SECONDS);
        }
        long kept = s.stats().accepted();
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try {
            List<CompletableFuture<Ended>> cancelled = new ArrayList<>();
            for (int i = 0; i < PER_ROUTE; i++) {
                CompletableFuture<Ended> f = new CompletableFuture<>();
                Future<SimpleHttpResponse> exchange = client.execute(SimpleRequestBuilder.get(stub.uri() + StubHabits.NEVER)
                        .addHeader(StubHabits.KEY, "t-" + i).build(), callback(f, System.nanoTime()));
                timer.schedule(() -> exchange.cancel(true), StubHabits.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                cancelled.add(f);
            }
            List<Ended> timedOut = all(cancelled);
            StubHabits.until(() -> s.tally().inFlight() == 0, Duration.ofSeconds(3)); // a closed one goes in milliseconds
            int dead = s.tally().inFlight();
            List<CompletableFuture<Ended>> after = sendMore(Client.ASYNC, List.of(stub.uri()), PER_ROUTE, "/?bytes=5", "a-");
            StubHabits.until(() -> after.stream().allMatch(CompletableFuture::isDone), Duration.ofSeconds(3));
            assertAll("cancelled " + timedOut + "; stub " + s.tally().toJson(),
                    () -> assertEquals(PER_ROUTE, kept, "5 connections kept alive"),
                    () -> assertEquals(PER_ROUTE, s.stats().accepted(), "and every exchange sent on them"),
                    () -> assertTrue(timedOut.stream().allMatch(e -> e.outcome().equals("cancelled")), "each cancelled"),
                    () -> assertEquals(PER_ROUTE, dead, "connections left carrying a dead exchange"),
                    () -> assertEquals(PER_ROUTE, s.openConnections()),
                    () -> assertEquals(0, after.stream().filter(CompletableFuture::isDone).count(), "ordinary requests served"));
        } finally {
            timer.shutdownNow();
        }
    }

    /** apache and apache-vt, default pool (5/64): 64 callers to one route, the pool leases 5 and the rest wait. */
    @ParameterizedTest
    @EnumSource(Client.class)
    void sixtyFourCallersToOneRouteAreHeldToFive(Client kind) throws Exception {
        int callers = 64;
        send(kind, List.of(stub.uri()), callers, StubHabits.NEVER, "pool-");
        StubServer s = stub.server();
        StubHabits.until(() -> s.tally().inFlight() >= callers, Duration.ofSeconds(2)); // never, as shipped: bounded
        assertAll(kind + ": stub " + s.tally().toJson(),
                () -> assertEquals(PER_ROUTE, s.tally().peakInFlight(), "the stub held 5 at once"),
                () -> assertEquals(PER_ROUTE, StubHabits.reads(s, "pool-"), "and read no more"));
    }

    /**
     * apache and apache-vt, slow host (100 wait): 6 slow routes, 5 callers each, fill the pool's 25 in all with
     * requests never answered; a request to a fast route then waits for a lease that no slow request gives back: the
     * fast stub reads none of them while the slow ones hold the pool.
     */
    @ParameterizedTest
    @EnumSource(Client.class)
    void aFastRoutesRequestsWaitWhileSlowRoutesHoldThePool(Client kind) throws Exception {
        int routes = IN_ALL / PER_ROUTE + 1;
        List<StubServer> slow = StubHabits.slowHosts(routes);
        try (StubServer fast = StubHabits.fastHost()) {
            send(kind, slow.stream().map(StubServer::uri).toList(), PER_ROUTE, StubHabits.NEVER, "slow-");
            StubHabits.until(() -> slow.stream().mapToInt(x -> x.tally().inFlight()).sum() >= IN_ALL, Duration.ofSeconds(5));
            List<CompletableFuture<Ended>> fastCalls = sendMore(kind, List.of(fast.uri()), PER_ROUTE, "/?bytes=5", "fast-");
            StubHabits.until(() -> StubHabits.reads(fast, "fast-") > 0, Duration.ofSeconds(1)); // never, as shipped
            int slowHeld = slow.stream().mapToInt(x -> x.tally().inFlight()).sum();
            assertAll(kind + ": slow held " + slowHeld + ", fast " + fastCalls,
                    () -> assertEquals(IN_ALL, slowHeld, "the slow routes hold the pool's 25"),
                    () -> assertEquals(0, StubHabits.reads(fast, "fast-"), "the fast stub read none"),
                    () -> assertEquals(0, fastCalls.stream().filter(CompletableFuture::isDone).count(), "none ended"));
        } finally {
            slow.forEach(StubServer::close);
        }
    }

    /**
     * apache, h2 goaway (242 fail): the HTTP/2 client (h2c) against a GOAWAY at every 20th stream of a connection, that
     * stream refused, unprocessed, and safe to send again. One caller, 40 requests in turn: the stub refuses the 20th
     * and 40th, and the client fails both (ConnectionClosedException, which its retry strategy never retries).
     */
    @Test
    void aStreamAGoAwayRefusedFailsUnsent() throws Exception {
        CloseableHttpAsyncClient client = HttpAsyncClients.customHttp2().build();
        client.start();
        clients.add(client);
        String url = stub.uri() + "/?goAwayEvery=20";
        Map<String, Integer> outcomes = RefusedStreams.assertBothFail(stub.server(), key -> String.valueOf(client.execute(
                SimpleRequestBuilder.get(url).addHeader(StubHabits.KEY, key).build(), null).get(10, TimeUnit.SECONDS).getCode()));
        assertEquals(Map.of("200", 38, "ConnectionClosedException", 2), outcomes, "each as its connection closed");
    }

    /** {@code perTarget} GETs of {@code query} to each target at once, round robin, on a new client of {@code kind}. */
    private List<CompletableFuture<Ended>> send(Client kind, List<URI> targets, int perTarget, String query,
                                                String prefix) {
        if (kind == Client.CLASSIC) {
            classic(pool -> pool, RequestConfig.DEFAULT);
        } else {
            async(pool -> pool, RequestConfig.DEFAULT);
        }
        return sendMore(kind, targets, perTarget, query, prefix);
    }

    /** As {@link #send}, on the client made last. */
    private List<CompletableFuture<Ended>> sendMore(Client kind, List<URI> targets, int perTarget, String query,
                                                    String prefix) {
        List<CompletableFuture<Ended>> calls = new ArrayList<>();
        for (int i = 0; i < perTarget; i++) {
            for (int t = 0; t < targets.size(); t++) {
                String url = targets.get(t) + query;
                String key = prefix + t + "-" + i;
                calls.add(kind == Client.CLASSIC
                        ? timed(() -> classicGet((CloseableHttpClient) clients.getLast(), url, key))
                        : asyncGet((CloseableHttpAsyncClient) clients.getLast(), url, key));
            }
        }
        return calls;
    }

    /**
     * apache, closed in flight (GET lost): each answer followed at once by a FIN; the async client leases the connection
     * before its I/O reactor has read the close, and the GET sent on it fails, never sent again.
     */
    @Test
    void anAsyncGetSentAsItsConnectionClosesFails() throws Exception {
        CloseableHttpAsyncClient client = async(pool -> pool, RequestConfig.DEFAULT);
        ClosedInFlight.Counts c = ClosedInFlight.run(stub.server(), (method, url, key) -> asyncSend(client, method, url, key),
                () -> {
                    client.close(CloseMode.GRACEFUL);
                    client.awaitShutdown(TimeValue.ofSeconds(2));
                    client.close(CloseMode.IMMEDIATE);
                }, ClosedInFlight.ROUNDS, x -> x.getsFailed() >= 1);
        ClosedInFlight.assertAGetLost(c.toString(), c);
    }

    /** The status alone, or the failure's class. */
    private static String asyncSend(CloseableHttpAsyncClient client, String method, String url, String key)
            throws Exception {
        SimpleRequestBuilder b = method.equals("POST")
                ? SimpleRequestBuilder.post(url).setBody(new byte[1024], ContentType.APPLICATION_OCTET_STREAM)
                : SimpleRequestBuilder.get(url);
        CompletableFuture<Ended> f = new CompletableFuture<>();
        client.execute(b.addHeader(StubHabits.KEY, key).build(), callback(f, System.nanoTime()));
        return f.get(10, TimeUnit.SECONDS).outcome().replaceFirst(":.*", "");
    }

    private CloseableHttpClient classic(UnaryOperator<PoolingHttpClientConnectionManagerBuilder> pool, RequestConfig rc) {
        CloseableHttpClient c = HttpClients.custom()
                .setConnectionManager(pool.apply(PoolingHttpClientConnectionManagerBuilder.create()).build())
                .setDefaultRequestConfig(rc).build();
        clients.add(c);
        return c;
    }

    /**
     * apache, unclosed body (5,5, the 5 wait): 500s with 1 MiB bodies through a consumer that takes the head and asks
     * for no more of the body, as an async caller that stops reading leaves it; after two collections and a request
     * elsewhere the stub still has the pool's 5 connections open (5 per route), and the next request waits for one.
     */
    @Test
    void anAsyncConsumerThatStopsReadingKeepsItsLeaseAfterACollection() throws Exception {
        CloseableHttpAsyncClient client = async(pool -> pool, RequestConfig.DEFAULT);
        try (StubServer elsewhere = StubServer.start(StubOptions.loopback())) {
            int held = ForgottenBodies.heldAfterCollection(stub.server(), elsewhere, PER_ROUTE, (url, key) -> {
                CompletableFuture<Integer> head = new CompletableFuture<>();
                client.execute(SimpleRequestProducer.create(SimpleRequestBuilder.get(url).addHeader(StubHabits.KEY, key)
                        .build()), new StopsReading(head), null);
                return head.get(10, TimeUnit.SECONDS);
            }, url -> assertEquals("200:5", asyncGet(client, url, "housekeeping").get(10, TimeUnit.SECONDS).outcome()));
            assertEquals(PER_ROUTE, held, "unclosed body: held 5,5 after GC (NO)");
            ForgottenBodies.assertTheNextWaits(stub.server(), (url, key) -> asyncGet(client, url, key).get());
        }
    }

    /** Takes the head and asks for no more of the body: the exchange, and the lease of its connection, stay open. */
    private static final class StopsReading extends AbstractBinResponseConsumer<Void> {
        private final CompletableFuture<Integer> head;

        StopsReading(CompletableFuture<Integer> head) {
            this.head = head;
        }

        @Override
        protected void start(HttpResponse response, ContentType contentType) {
            head.complete(response.getCode());
        }

        @Override
        protected int capacityIncrement() {
            return 0;
        }

        @Override
        protected void data(ByteBuffer src, boolean endOfStream) {
            src.position(src.limit()); // what came with the head, dropped; no more is asked for
        }

        @Override
        protected Void buildResult() {
            return null;
        }

        @Override
        public void releaseResources() {
        }
    }

    private CloseableHttpAsyncClient async(UnaryOperator<PoolingAsyncClientConnectionManagerBuilder> pool,
                                           RequestConfig rc) {
        CloseableHttpAsyncClient c = HttpAsyncClients.custom()
                .setConnectionManager(pool.apply(PoolingAsyncClientConnectionManagerBuilder.create()).build())
                .setDefaultRequestConfig(rc).build();
        c.start();
        clients.add(c);
        return c;
    }

    /** A request's outcome ("200:bytes", or the failure's class) and the time from its send to its end. */
    record Ended(String outcome, long nanos) {
        long millis() {
            return TimeUnit.NANOSECONDS.toMillis(nanos);
        }
    }

    interface Exchange {
        String run() throws Exception;
    }

    /** Runs a blocking exchange on its own virtual thread, timed from its start. */
    private CompletableFuture<Ended> timed(Exchange exchange) {
        long start = System.nanoTime();
        return CompletableFuture.supplyAsync(() -> {
            String outcome;
            try {
                outcome = exchange.run();
            } catch (Exception e) {
                outcome = e.getClass().getSimpleName();
            }
            return new Ended(outcome, System.nanoTime() - start);
        }, callers);
    }

    private static String classicGet(CloseableHttpClient client, String url, String key) {
        HttpGet get = new HttpGet(url);
        get.addHeader(StubHabits.KEY, key);
        return classicExchange(client, get);
    }

    private static String classicPost(CloseableHttpClient client, String url, String key) {
        HttpPost post = new HttpPost(url);
        post.addHeader(StubHabits.KEY, key);
        post.setEntity(new ByteArrayEntity(new byte[1024], ContentType.APPLICATION_OCTET_STREAM));
        return classicExchange(client, post);
    }

    /** The status, or the failure's class: what the caller saw. */
    private static String classicExchange(CloseableHttpClient client,
                                          org.apache.hc.core5.http.ClassicHttpRequest request) {
        try {
            return client.execute(request, r -> r.getCode() + ":" + EntityUtils.toByteArray(r.getEntity()).length);
        } catch (IOException e) {
            return e.getClass().getSimpleName();
        }
    }

    private static CompletableFuture<Ended> asyncGet(CloseableHttpAsyncClient client, String url, String key) {
        CompletableFuture<Ended> f = new CompletableFuture<>();
        client.execute(SimpleRequestBuilder.get(url).addHeader(StubHabits.KEY, key).build(), callback(f, System.nanoTime()));
        return f;
    }

    /** Completes {@code f} with the exchange's outcome and its time from {@code start}. */
    private static FutureCallback<SimpleHttpResponse> callback(CompletableFuture<Ended> f, long start) {
        return new FutureCallback<>() {
            @Override
            public void completed(SimpleHttpResponse r) {
                f.complete(new Ended(r.getCode() + ":" + r.getBodyBytes().length, System.nanoTime() - start));
            }

            @Override
            public void failed(Exception e) {
                f.complete(new Ended(e.getClass().getSimpleName(), System.nanoTime() - start));
            }

            @Override
            public void cancelled() {
                f.complete(new Ended("cancelled", System.nanoTime() - start));
            }
        };
    }

    private static List<Ended> all(List<CompletableFuture<Ended>> calls) throws Exception {
        List<Ended> out = new ArrayList<>();
        for (CompletableFuture<Ended> c : calls) {
            out.add(c.get(30, TimeUnit.SECONDS));
        }
        return out;
    }
}
