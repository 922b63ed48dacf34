package clientbench.behaviour.alone;

import clientbench.stub.StubExtension;
import clientbench.stub.StubOptions;
import clientbench.stub.StubServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JDK's HttpClient NO cells with the JDK alone (the runtime the tests run on, 25): {@code HttpRequest.timeout}
 * ends when the response head arrives, so a stalled or trickled body never times out (own deadline, suite deadline);
 * past the server's HTTP/2 stream limit a request fails (h2 streams).
 */
@Timeout(60)
class JdkAloneTest {

    private final List<HttpClient> clients = new ArrayList<>();
    private final ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor();
    @RegisterExtension
    final StubExtension stub = new StubExtension();

    /** How the suite's two JDK clients call: jdk sends async, jdk-vt sends and blocks on its own thread. */
    enum Style {
        SEND_ASYNC, SEND
    }

    @AfterEach
    void close() {
        callers.shutdownNow();
        clients.forEach(HttpClient::shutdownNow);
    }

    /**
     * jdk and jdk-vt, own deadline (headers: stall,trickle never) and suite deadline (headers: never): a 1 s
     * {@code HttpRequest.timeout} fires on a server that never answers (the control), but not on a body stalled or
     * trickled after its head: 1 s + 2 s after their send no stalled request has ended, and each trickled one ends ok
     * with its 10 bytes, 3.6 s or more after its send. {@code send} is {@code sendAsync(...).get()}: one timer.
     */
    @ParameterizedTest
    @EnumSource(Style.class)
    void aRequestTimeoutEndsAtTheHeadAndNeverCoversTheBody(Style style) throws Exception {
        HttpClient client = client(HttpClient.Version.HTTP_1_1);
        HeadTimeouts.assertItFiresOnlyBeforeTheHead(stub.server(), (url, key) -> send(style, client, get(url, key)
                .timeout(StubHabits.TIMEOUT).build()), "HttpTimeoutException");
    }

    /**
     * jdk and jdk-vt, h2 streams (767 fail): h2c to a server allowing 10 streams at once; 10 requests hold them
     * (the stub sees 10 open on the connection), and the 11th fails ("too many concurrent streams") instead of waiting
     * or opening another connection.
     */
    @ParameterizedTest
    @EnumSource(Style.class)
    void aRequestPastTheServersStreamLimitFails(Style style) throws Exception {
        try (StubServer limited = StubServer.start(new StubOptions("127.0.0.1", 0, 1, false, false, 10))) {
            HttpClient client = client(HttpClient.Version.HTTP_2);
            String url = limited.uri() + "/?delayMs=2000";
            assertEquals("200:5", send(style, client, get(limited.uri() + "/", "upgrade").build()).get(10, TimeUnit.SECONDS),
                    "h2c by Upgrade: the connection is HTTP/2 from here");
            List<CompletableFuture<String>> held = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                held.add(send(style, client, get(url, "held-" + i).build()));
            }
            StubHabits.until(() -> limited.tally().inFlight() == 10, Duration.ofSeconds(5));
            String eleventh = send(style, client, get(url, "eleventh").build()).get(10, TimeUnit.SECONDS);
            List<String> first = new ArrayList<>();
            for (CompletableFuture<String> c : held) {
                first.add(c.get(10, TimeUnit.SECONDS));
            }
            assertAll(style + ": " + eleventh + "; " + first + "; stub " + limited.stats().toJson(),
                    () -> assertEquals(10, limited.stats().peakStreams(), "10 streams open at once"),
                    () -> assertEquals(1, limited.stats().accepted(), "on one connection"),
                    () -> assertEquals("IOException: too many concurrent streams", eleventh),
                    () -> assertEquals(0, StubHabits.reads(limited, "eleventh"), "never sent"),
                    () -> assertTrue(first.stream().allMatch("200:5"::equals), "the 10 answered"));
        }
    }

    /**
     * jdk and jdk-vt, h2 goaway (31 fail): the JDK resends a stream a GOAWAY refused by closing it as unprocessed, a
     * task on the client's executor; when the server's close is read first, the stream fails (EOFException) instead.
     * The stub closes once the refused stream is its last, as RFC 9113 allows; an executor running each task 50 ms
     * late, as a busy application's does, makes the race certain. One caller, 20 requests: the 20th stream refused.
     */
    @ParameterizedTest
    @EnumSource(Style.class)
    void aStreamAGoAwayRefusedFailsWhenTheCloseIsReadBeforeItsResend(Style style) throws Exception {
        ExecutorService executor = Executors.newCachedThreadPool();
        try {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).executor(task -> executor.execute(() -> {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                task.run();
            })).build();
            clients.add(client);
            assertEquals("200:5", send(style, client, get(stub.uri() + "/", "upgrade").build()).get(10, TimeUnit.SECONDS),
                    "h2c by Upgrade, a stream the GOAWAY habit does not count");
            String url = stub.uri() + "/?goAwayEvery=20";
            Map<String, Integer> outcomes = InTurn.run(1, 20, "r-",
                    key -> send(style, client, get(url, key).build()).get(10, TimeUnit.SECONDS));
            StubServer s = stub.server();
            assertAll(style + ": " + outcomes + "; stub " + s.tally().toJson(),
                    () -> assertEquals(1, s.tally().goAways(), "a GOAWAY at the connection's 20th stream"),
                    () -> assertEquals(Map.of("200:5", 19, "EOFException", 1), outcomes, "the refused stream failed"),
                    () -> assertEquals(19, StubHabits.reads(s, "r-"), "the stub read every other request, once"));
        } finally {
            executor.shutdownNow();
        }
    }

    private HttpClient client(HttpClient.Version version) {
        HttpClient c = HttpClient.newBuilder().version(version).build();
        clients.add(c);
        return c;
    }

    private static HttpRequest.Builder get(String url, String key) {
        return HttpRequest.newBuilder(URI.create(url)).header(StubHabits.KEY, key);
    }

    /** The status and body length, or the failure's class (and its message, for an IOException). */
    private CompletableFuture<String> send(Style style, HttpClient client, HttpRequest request) {
        if (style == Style.SEND) {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return outcome(client.send(request, HttpResponse.BodyHandlers.ofByteArray()));
                } catch (Exception e) {
                    return outcome(e);
                }
            }, callers);
        }
        return client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
                .handle((r, e) -> e == null ? outcome(r) : outcome(e));
    }

    private static String outcome(HttpResponse<byte[]> r) {
        return r.statusCode() + ":" + r.body().length;
    }

    /** The innermost cause's class, with its message for a plain IOException: {@code send} wraps what it rethrows. */
    private static String outcome(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getClass().equals(java.io.IOException.class) ? "IOException: " + t.getMessage() : t.getClass().getSimpleName();
    }
}
