package clientbench.behaviour;

import clientbench.stub.StubExtension;
import clientbench.stub.StubServer;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.RequestBody;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.util.TimeValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * closed-at-once-seen with each library alone, no adapter: the stub sends its FIN right after each answer, and each
 * POST and GET goes once the stub's count shows that FIN went out, {@link StaleConnection#SEEN_GRACE} later, on the
 * connection the answer before left behind. The stub's own counts: requests that came after its FIN (sent on a
 * connection whose close had reached the client), and those it read. Beside each, the library with the setting that
 * changes it.
 */
@Timeout(60)
class ClosedConnectionLibraryAloneTest {

    static final int ROUNDS = StaleConnection.SEEN_ROUNDS;
    private static final String HABIT = "/?idleClose=fin&idleMs=0";

    @RegisterExtension
    final StubExtension stub = new StubExtension();

    /**
     * What the stub saw of the probes, counted once {@code client} is closed and the stub saw each of its connections
     * close (a probe failed on the FIN can be read after its failure): kind -> [came after its FIN, read].
     */
    private Map<String, List<Integer>> seen(AutoCloseable client) throws Exception {
        client.close();
        StubReadCounts.awaitEveryConnectionClosed(stub.server());
        StubServer s = stub.server();
        Map<String, List<Integer>> out = new TreeMap<>();
        for (String kind : List.of("post", "get")) {
            out.put(kind, List.of(s.seenAfterFin(kind + "-").size(), s.seen(kind + "-").size()));
        }
        return out;
    }

    /** Sends a request leaving a connection with the habit, then waits for its FIN as the case does. */
    private void leaveAClosedConnection(Send send) throws Exception {
        CloseProof proof = new CloseProof(stub.server());
        assertEquals(200, send.send("GET", HABIT, null));
        assertEquals(true, proof.await(Duration.ofSeconds(2)), "the stub's FIN went out");
        Thread.sleep(StaleConnection.SEEN_GRACE.toMillis());
    }

    /** The case's rounds: kind -> the statuses (0: failed), each probe on the connection the request before left. */
    private Map<String, Integer> failures(Send send) throws Exception {
        Map<String, Integer> failed = new TreeMap<>(Map.of("post", 0, "get", 0));
        for (int i = 1; i <= ROUNDS; i++) {
            for (String kind : List.of("post", "get")) {
                leaveAClosedConnection(send);
                if (send.send(kind.toUpperCase(java.util.Locale.ROOT), "/", kind + "-" + i) != 200) {
                    failed.merge(kind, 1, Integer::sum);
                }
            }
        }
        return failed;
    }

    @FunctionalInterface
    private interface Send {
        /** The status, or 0 when the request failed. */
        int send(String method, String pathAndQuery, String key) throws Exception;
    }

    /**
     * OkHttp checks a pooled connection's socket only after 10 s idle, and only for a request other than GET
     * ({@code RealConnection.isHealthy}): every probe goes on the closed connection, and retryOnConnectionFailure (true
     * by default) sends it again on a fresh one, the POSTs too. With it off, each probe fails instead.
     */
    @Test
    void okHttpSendsEveryRequestOnTheClosedConnectionAndSendsEachPostAgain() throws Exception {
        OkHttpClient ok = okHttp(true);
        Map<String, Integer> failedByDefault = failures(send(ok));
        Map<String, List<Integer>> byDefault = seen(() -> close(ok));
        assertAll("default " + byDefault + " " + failedByDefault,
                () -> assertEquals(Map.of("post", List.of(ROUNDS, ROUNDS), "get", List.of(ROUNDS, ROUNDS)), byDefault,
                        "each probe after the FIN, then read: sent twice (closed seen: POST 5/5 x2,10 on closed NO)"),
                () -> assertEquals(Map.of("post", 0, "get", 0), failedByDefault));
    }

    @Test
    void okHttpWithoutItsRetryFailsEachRequestSentOnTheClosedConnection() throws Exception {
        OkHttpClient ok = okHttp(false);
        Map<String, Integer> failed = failures(send(ok));
        Map<String, List<Integer>> seen = seen(() -> close(ok));
        assertAll("retryOnConnectionFailure(false) " + seen + " " + failed,
                () -> assertEquals(Map.of("post", List.of(ROUNDS, 0), "get", List.of(ROUNDS, 0)), seen),
                () -> assertEquals(Map.of("post", ROUNDS, "get", ROUNDS), failed));
    }

    private static OkHttpClient okHttp(boolean retryOnConnectionFailure) {
        return new OkHttpClient.Builder().protocols(List.of(okhttp3.Protocol.HTTP_1_1))
                .retryOnConnectionFailure(retryOnConnectionFailure).build();
    }

    /** OkHttp has no close(): its docs' shutdown, the dispatcher's threads, then the pool's connections. */
    private static void close(OkHttpClient ok) {
        ok.dispatcher().executorService().shutdown();
        ok.connectionPool().evictAll();
    }

    private Send send(OkHttpClient ok) {
        return (method, path, key) -> {
            okhttp3.Request.Builder b = new okhttp3.Request.Builder().url("http://127.0.0.1:" + stub.port() + path);
            if (key != null) {
                b.header(CaseContext.KEY, key);
            }
            if ("POST".equals(method)) {
                b.post(RequestBody.create(new byte[1024], MediaType.get("application/octet-stream")));
            }
            try (okhttp3.Response r = ok.newCall(b.build()).execute()) {
                r.body().bytes();
                return r.code();
            } catch (IOException failed) {
                return 0;
            }
        };
    }

    /**
     * Apache HttpClient 5's classic client validates a pooled connection only after 2 s idle
     * ({@code ConnectionConfig.validateAfterInactivity}), and its retry strategy sends an idempotent request again, not a
     * POST: each probe goes on the closed connection, the POSTs fail, the GETs are read once sent again. Validating
     * before every reuse, none goes on the closed connection.
     */
    @Test
    void apacheClassicSendsOnTheClosedConnectionAndFailsThePostsUnlessItValidatesEveryReuse() throws Exception {
        Map<String, Integer> failedByDefault;
        Map<String, List<Integer>> byDefault;
        try (CloseableHttpClient apache = HttpClients.createDefault()) {
            failedByDefault = failures(apache(apache));
            byDefault = seen(apache);
        }
        assertAll("default " + byDefault + " " + failedByDefault,
                () -> assertEquals(Map.of("post", List.of(ROUNDS, 0), "get", List.of(ROUNDS, ROUNDS)), byDefault),
                () -> assertEquals(Map.of("post", ROUNDS, "get", 0), failedByDefault,
                        "closed seen: POST 5/5 fail,10 on closed NO"));
    }

    @Test
    void apacheClassicValidatingEveryReuseSendsNothingOnTheClosedConnection() throws Exception {
        Map<String, Integer> failed;
        Map<String, List<Integer>> seen;
        try (CloseableHttpClient apache = HttpClients.custom().setConnectionManager(
                PoolingHttpClientConnectionManagerBuilder.create().setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setValidateAfterInactivity(TimeValue.ZERO_MILLISECONDS).build()).build()).build()) {
            failed = failures(apache(apache));
            seen = seen(apache);
        }
        assertAll("validateAfterInactivity 0 " + seen + " " + failed,
                () -> assertEquals(Map.of("post", List.of(0, ROUNDS), "get", List.of(0, ROUNDS)), seen),
                () -> assertEquals(Map.of("post", 0, "get", 0), failed));
    }

    private Send apache(CloseableHttpClient apache) {
        return (method, path, key) -> {
            String uri = "http://127.0.0.1:" + stub.port() + path;
            ClassicHttpRequest r = "POST".equals(method) ? new HttpPost(uri) : new HttpGet(uri);
            if ("POST".equals(method)) {
                r.setEntity(new ByteArrayEntity(new byte[1024], org.apache.hc.core5.http.ContentType.APPLICATION_OCTET_STREAM));
            }
            if (key != null) {
                r.setHeader(CaseContext.KEY, key);
            }
            try {
                return apache.execute(r, response -> {
                    EntityUtils.consume(response.getEntity());
                    return response.getCode();
                });
            } catch (IOException failed) {
                return 0;
            }
        };
    }
}
