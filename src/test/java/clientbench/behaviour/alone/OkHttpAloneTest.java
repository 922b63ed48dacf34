package clientbench.behaviour.alone;

import clientbench.stub.StubExtension;
import clientbench.stub.StubOptions;
import clientbench.stub.StubServer;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OkHttp 5's NO cells with OkHttp alone, as its builder ships it: a POST sent again after its connection closed under
 * it (idle race) or as it was sent (closed in flight), a call's timeout that starts only when the dispatcher runs it
 * (1k timeouts), the dispatcher's 5 calls per host (default pool) and 64 in all, shared by every host (slow host).
 */
@Timeout(60)
class OkHttpAloneTest {

    /** Dispatcher's documented defaults: maxRequestsPerHost and maxRequests. */
    private static final int PER_HOST = 5;
    private static final int IN_ALL = 64;

    @RegisterExtension
    final StubExtension stub = new StubExtension();
    private final List<OkHttpClient> clients = new ArrayList<>();

    /** How the suite's two OkHttp clients call: okhttp enqueues, okhttp-vt executes on its own thread. */
    enum Style {
        ENQUEUE, EXECUTE;

        /** The status, or the failure's class: what the caller saw. */
        String send(OkHttpClient client, Request request) throws Exception {
            if (this == EXECUTE) {
                try (Response r = client.newCall(request).execute()) {
                    r.body().string();
                    return String.valueOf(r.code());
                } catch (IOException e) {
                    return e.getClass().getSimpleName();
                }
            }
            return ended(client.newCall(request)).get(10, TimeUnit.SECONDS).outcome();
        }
    }

    /** A call's outcome and when its callback ran ({@link System#nanoTime()}). */
    record Ended(String outcome, long atNanos) {
    }

    @AfterEach
    void close() {
        for (OkHttpClient c : clients) {
            c.dispatcher().cancelAll();
            c.dispatcher().executorService().shutdownNow();
            c.connectionPool().evictAll();
        }
    }

    /**
     * okhttp and okhttp-vt, idle race: the stub closes the idle connection as the POST's head arrives, unanswered;
     * OkHttp retries any request whose body is not one-shot, whatever its method, so the stub reads the POST twice.
     */
    @ParameterizedTest
    @EnumSource(Style.class)
    void aPostWhoseConnectionClosedUnderItsHeadIsSentTwice(Style style) throws Exception {
        OkHttpClient client = client(b -> b);
        IdleRace.assertThePostIsSentTwice(stub.server(), (url, key) -> style.send(client, get(url, key)),
                (url, key) -> style.send(client, new Request.Builder().url(url).header(StubHabits.KEY, key)
                        .post(RequestBody.create(new byte[1024], MediaType.get("application/octet-stream"))).build()));
    }

    /**
     * okhttp and okhttp-vt, closed in flight (POST x2): each answer is followed at once by a FIN; OkHttp sends the next
     * request on that connection and, as it fails there, again on a new one (retryOnConnectionFailure, true by default),
     * a POST too. Control, on a stub of its own: with retryOnConnectionFailure(false) the POSTs fail, none sent twice.
     */
    @ParameterizedTest
    @EnumSource(Style.class)
    void aPostSentAsItsConnectionClosesIsSentAgain(Style style) throws Exception {
        ClosedInFlight.Counts shipped = closedInFlight(stub.server(), style, client(b -> b), c -> c.postsTwice() >= 1);
        ClosedInFlight.Counts noRetry;
        try (StubServer own = StubServer.start(StubOptions.loopback())) {
            noRetry = closedInFlight(own, style, client(b -> b.retryOnConnectionFailure(false)), c -> c.postsFailed() >= 5);
        }
        assertAll("as shipped " + shipped + "; retryOnConnectionFailure(false) " + noRetry,
                () -> assertTrue(shipped.postsTwice() >= 1, "closed in flight: POST n/N x2 (NO)"),
                () -> assertEquals(0, shipped.getsFailed(), "no GET lost"),
                () -> assertTrue(noRetry.postsFailed() >= 1, "without the retry the close fails the POSTs"),
                () -> assertEquals(0, noRetry.postsTwice(), "and sends none twice"));
    }

    private static ClosedInFlight.Counts closedInFlight(StubServer s, Style style, OkHttpClient client,
                                                        java.util.function.Predicate<ClosedInFlight.Counts> enough)
            throws Exception {
        return ClosedInFlight.run(s, (method, url, key) -> style.send(client, new Request.Builder().url(url)
                        .header(StubHabits.KEY, key).method(method, method.equals("POST")
                                ? RequestBody.create(new byte[1024], MediaType.get("application/octet-stream")) : null)
                        .build()),
                () -> client.connectionPool().evictAll(), ClosedInFlight.ROUNDS, enough);
    }

    /**
     * okhttp, 1k timeouts (+7.0 s): callTimeout starts when the dispatcher runs the call, not when it is enqueued. Four
     * waves of calls the stub never answers, 5 at a time: at most 5 run at once and each runs its whole 1 s, so the
     * last ends 4 s or more after its enqueue, 3 s past its deadline (the case's 500 at once on 64 slots: 7 waves late).
     */
    @Test
    void aQueuedCallsTimeoutStartsWhenTheDispatcherRunsIt() throws Exception {
        OkHttpClient client = client(b -> b.callTimeout(StubHabits.TIMEOUT));
        int waves = 4;
        long start = System.nanoTime();
        List<CompletableFuture<Ended>> calls = new ArrayList<>();
        for (int i = 0; i < waves * PER_HOST; i++) {
            calls.add(ended(client.newCall(get(stub.uri() + StubHabits.NEVER, "t-" + i))));
        }
        List<Ended> done = new ArrayList<>();
        for (CompletableFuture<Ended> c : calls) {
            done.add(c.get(30, TimeUnit.SECONDS));
        }
        long latestMs = TimeUnit.NANOSECONDS.toMillis(done.stream().mapToLong(Ended::atNanos).max().orElseThrow() - start);
        StubServer s = stub.server();
        boolean settled = StubHabits.until(() -> s.tally().inFlight() == 0, Duration.ofSeconds(3));
        assertAll("latest ended " + latestMs + " ms after its enqueue; " + done,
                () -> assertTrue(done.stream().allMatch(d -> d.outcome().equals("InterruptedIOException")), "all timed out"),
                () -> assertEquals(waves * PER_HOST, StubHabits.reads(s, "t-"), "each was sent before it timed out"),
                () -> assertTrue(latestMs >= waves * StubHabits.TIMEOUT.toMillis(),
                        "its deadline fired past the 2 s bound: " + (latestMs - StubHabits.TIMEOUT.toMillis()) + " ms late"),
                () -> assertTrue(settled, "no connection left carrying a dead exchange"));
    }

    /** okhttp, default pool (5/64): 64 callers to one host, the dispatcher runs 5 and queues 59. */
    @Test
    void sixtyFourCallersToOneHostAreHeldToFive() throws Exception {
        OkHttpClient client = client(b -> b);
        int callers = 64;
        for (int i = 0; i < callers; i++) {
            ended(client.newCall(get(stub.uri() + StubHabits.NEVER, "pool-" + i)));
        }
        StubServer s = stub.server();
        StubHabits.until(() -> s.tally().inFlight() >= callers, Duration.ofSeconds(2)); // never, as shipped: bounded
        assertAll("stub " + s.tally().toJson(),
                () -> assertEquals(PER_HOST, s.tally().peakInFlight(), "the stub held 5 at once"),
                () -> assertEquals(PER_HOST, StubHabits.reads(s, "pool-"), "and read no more"),
                () -> assertEquals(callers - PER_HOST, client.dispatcher().queuedCallsCount(), "the rest wait, unseen"));
    }

    /**
     * okhttp, slow host (100 wait): 13 slow hosts, 5 callers each, fill the dispatcher's 64 in all; a call to a fast
     * host then waits for a slow answer. Its callback runs after the first slow one's: an order, not a time.
     */
    @Test
    void aFastHostsCallsWaitForASlowAnswerOnceSlowHostsFillTheDispatcher() throws Exception {
        int hosts = IN_ALL / PER_HOST + 1;
        List<StubServer> slow = StubHabits.slowHosts(hosts);
        try (StubServer fast = StubHabits.fastHost()) {
            OkHttpClient client = client(b -> b);
            List<CompletableFuture<Ended>> slowCalls = new ArrayList<>();
            for (int i = 0; i < PER_HOST; i++) {
                for (int h = 0; h < hosts; h++) {
                    slowCalls.add(ended(client.newCall(get(slow.get(h).uri() + "/?delayMs=2000", "slow-" + h + "-" + i))));
                }
            }
            List<CompletableFuture<Ended>> fastCalls = new ArrayList<>();
            for (int i = 0; i < PER_HOST; i++) {
                fastCalls.add(ended(client.newCall(get(fast.uri() + "/?bytes=5", "fast-" + i))));
            }
            long firstSlow = Long.MAX_VALUE;
            for (CompletableFuture<Ended> c : slowCalls) {
                firstSlow = Math.min(firstSlow, c.get(30, TimeUnit.SECONDS).atNanos());
            }
            long waited = 0;
            for (CompletableFuture<Ended> c : fastCalls) {
                Ended e = c.get(30, TimeUnit.SECONDS);
                waited += e.outcome().equals("200") && e.atNanos() >= firstSlow ? 1 : 0;
            }
            long fastWaited = waited;
            assertAll(() -> assertEquals(fastCalls.size(), fastWaited, "fast calls that ended after a slow answer"),
                    () -> assertEquals(fastCalls.size(), StubHabits.reads(fast, "fast-")));
        } finally {
            slow.forEach(StubServer::close);
        }
    }

    private OkHttpClient client(UnaryOperator<OkHttpClient.Builder> change) {
        OkHttpClient c = change.apply(new OkHttpClient.Builder()).build();
        clients.add(c);
        return c;
    }

    private static Request get(String url, String key) {
        return new Request.Builder().url(url).header(StubHabits.KEY, key).build();
    }

    /** Enqueues the call; its outcome when its callback ran, the body read in full. */
    private static CompletableFuture<Ended> ended(Call call) {
        CompletableFuture<Ended> f = new CompletableFuture<>();
        call.enqueue(new Callback() {
            @Override
            public void onFailure(Call c, IOException e) {
                f.complete(new Ended(e.getClass().getSimpleName(), System.nanoTime()));
            }

            @Override
            public void onResponse(Call c, Response r) {
                try (r) {
                    r.body().string();
                    f.complete(new Ended(String.valueOf(r.code()), System.nanoTime()));
                } catch (IOException e) {
                    f.complete(new Ended(e.getClass().getSimpleName(), System.nanoTime()));
                }
            }
        });
        return f;
    }
}
