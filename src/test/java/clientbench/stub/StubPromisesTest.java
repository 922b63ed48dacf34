package clientbench.stub;

import clientbench.testkit.Prerequisites;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import okhttp3.Call;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.internal.http2.StreamResetException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What README promises of the stub and no other test checks: the longest delay it takes, PUT bodies,
 * RST_STREAM on HTTP/2, epoll where the native transport loads, and what only its command line does
 * (the line a second, the total on Ctrl-C, {@code --control}).
 */
@Timeout(60)
class StubPromisesTest {
    @RegisterExtension
    final StubExtension stub = new StubExtension(); // one a test: the counts below are the test's own

    @Test
    void delayUpToAnHourIsAcceptedAndHoldsOnlyItsOwnConnection() throws Exception {
        try (RawHttp held = new RawHttp(stub.port()); RawHttp other = new RawHttp(stub.port())) {
            held.send(RawHttp.get("/?delayMs=3600000"));
            held.socket.setSoTimeout(300);
            assertThrows(SocketTimeoutException.class, held::readByte, "an hour's delay answered early");
            assertEquals(200, other.send(RawHttp.get("/")).read().status(), "the other connection is served");
            RawHttp.Response tooLong = other.send(RawHttp.get("/?delayMs=3600001")).read();
            assertEquals(400, tooLong.status());
            assertTrue(tooLong.text().contains("delayMs must be 0-3600000"), tooLong.text());
        }
    }

    @Test
    void putBodyIsReadAndItsLengthEchoed() throws Exception {
        try (RawHttp c = new RawHttp(stub.port())) {
            RawHttp.Response r = c.send("PUT /thing HTTP/1.1\r\nHost: x\r\nContent-Length: 777\r\n\r\n" + "y".repeat(777)).read();
            assertEquals(200, r.status());
            assertEquals("777", r.header("x-request-bytes"));
        }
    }

    @Test
    void resetOnAnHttp2StreamResetsThatStreamOnly() throws Exception {
        OkHttpClient client = new OkHttpClient.Builder().protocols(List.of(Protocol.H2_PRIOR_KNOWLEDGE))
                .retryOnConnectionFailure(false).build(); // else OkHttp resends the reset request on a new connection
        try {
            try (Response warm = client.newCall(new Request.Builder().url(stub.uri() + "/").build()).execute()) {
                assertEquals(200, warm.code());
            }
            long connections = stub.server().stats().accepted(); // OkHttp may race several connects for the first call
            // 2 s: the reset request must meet the slow stream still open, however late a busy machine sends it.
            Call slow = client.newCall(new Request.Builder().url(stub.uri() + "/?delayMs=2000&bytes=7").build());
            java.util.concurrent.CompletableFuture<Integer> slowBody = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try (Response r = slow.execute()) {
                    return r.body().bytes().length;
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (stub.server().stats().requests() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(5); // until the stub has the slow stream's request: it is open before the reset one starts
            }
            StreamResetException reset = assertThrows(StreamResetException.class, () -> {
                try (Response r = client.newCall(new Request.Builder().url(stub.uri() + "/?fault=reset").build()).execute()) {
                    r.body().bytes();
                }
            });
            assertTrue(reset.getMessage().toUpperCase(Locale.ROOT).contains("STREAM") , reset.getMessage());
            assertEquals(7, slowBody.get(10, TimeUnit.SECONDS), "the other stream lives on");
            assertEquals(connections, stub.server().stats().accepted(), "the reset cost a stream, not the connection");
            assertEquals(3, stub.server().stats().requests(), "warm-up, slow and reset, each received once");
        } finally {
            client.dispatcher().executorService().shutdown();
            client.connectionPool().evictAll();
        }
    }

    @Test
    void epollWhereTheNativeTransportLoads() throws Exception {
        String arch = System.getProperty("os.arch");
        Prerequisites.require(System.getProperty("os.name").equals("Linux") && (arch.equals("amd64") || arch.equals("aarch64")),
                "the build ships Netty's epoll native for Linux x86_64 and aarch64 only");
        assertEquals("epoll", stub.server().transport());
    }

    @Test
    void printsALineASecondAndTheTotalOnCtrlC() throws Exception {
        Prerequisites.require(StubCli.sigintReachesIt(), "SIGINT is ignored in this process (SigIgn in /proc/self/status),"
                + " so in the stub it starts, and env cannot put it back: Ctrl-C cannot be tested here (run ./bench test from a shell"
                + " that does not ignore it: not under nohup, not in the background)");
        try (StubCli cli = new StubCli()) {
            try (RawHttp c = new RawHttp(cli.port)) {
                assertEquals(200, c.send(RawHttp.get("/")).read().status());
                assertEquals(200, c.send(RawHttp.get("/")).read().status());
            }
            // A loaded machine may delay the timer; two lines within 20 s still show "one a second".
            cli.await(l -> l.startsWith("stub: open="), 20);
            cli.await(l -> l.startsWith("stub: open="), 20);
            cli.signal("INT");
            String total = cli.await(l -> l.contains("stopped; total requests="), 20);
            assertTrue(total.contains("total requests=2"), total);
            assertEquals(130, cli.exitValue(20), "exit status of a JVM ended by SIGINT");
        }
    }

    @Test
    void controlAnswersStatsAndMarkWithItsOwnCounts() throws Exception {
        ObjectMapper json = new ObjectMapper();
        try (StubCli cli = new StubCli("--control", "--quiet")) {
            cli.command("mark");
            JsonNode atMark = json.readTree(cli.await(l -> l.startsWith("stats "), 20).substring(6));
            assertEquals(0, atMark.get("requests").asLong());
            try (RawHttp c = new RawHttp(cli.port)) {
                for (int i = 0; i < 3; i++) {
                    assertEquals(200, c.send(RawHttp.get("/")).read().status());
                }
            }
            cli.command("stats");
            JsonNode window = json.readTree(cli.await(l -> l.startsWith("stats "), 20).substring(6));
            assertEquals(3, window.get("requests").asLong());
            assertEquals(1, window.get("accepted").asLong());
            assertEquals(1, window.get("usedConnections").asLong());
            assertEquals(1, window.get("peakOpen").asInt());
            assertTrue(window.get("cpuNanos").asLong() > 0, window.toString());
            cli.command("nonsense");
            assertTrue(cli.await(l -> l.startsWith("stub: unknown command"), 20).contains("'nonsense'"));
        }
    }

    @Test
    void controlAnswersTallyAndSeenWithWhatItsHabitsDid() throws Exception {
        ObjectMapper json = new ObjectMapper();
        try (StubCli cli = new StubCli("--control", "--quiet")) {
            try (RawHttp c = new RawHttp(cli.port)) {
                for (String key : new String[] {"x\"1", "x\"1", "y"}) {
                    assertEquals(200, c.send("GET /?closeEvery=5 HTTP/1.1\r\nHost: x\r\nIdempotency-Key: " + key
                            + "\r\n\r\n").read().status());
                }
            }
            cli.command("seen x");
            JsonNode seen = json.readTree(cli.await(l -> l.startsWith("seen "), 20).substring(5));
            assertEquals(json.readTree("{\"x\\\"1\":2}"), seen, "keys starting with x, quotes escaped");
            cli.command("tally");
            JsonNode tally = json.readTree(cli.await(l -> l.startsWith("tally "), 20).substring(6));
            assertEquals(2, tally.get("keys").asLong(), tally.toString());
            assertEquals(1, tally.get("peakInFlight").asInt(), tally.toString());
            assertEquals(0, tally.get("closeEveryCloses").asLong(), tally.toString());
        }
    }
}
