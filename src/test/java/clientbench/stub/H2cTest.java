package clientbench.stub;

import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Cleartext HTTP/2 works both ways a client may start it: prior knowledge and HTTP/1.1 Upgrade. */
@Timeout(30)
class H2cTest {
    @RegisterExtension
    static final StubExtension stub = new StubExtension();

    @Test
    void priorKnowledgeSpeaksHttp2() throws Exception {
        OkHttpClient client = new OkHttpClient.Builder().protocols(List.of(Protocol.H2_PRIOR_KNOWLEDGE)).build();
        try {
            for (int i = 0; i < 3; i++) {
                try (Response r = client.newCall(new Request.Builder().url(stub.uri() + "/?bytes=321&status=201").build()).execute()) {
                    assertEquals(Protocol.H2_PRIOR_KNOWLEDGE, r.protocol());
                    assertEquals(201, r.code());
                    assertEquals(321, r.body().bytes().length);
                }
            }
        } finally {
            client.dispatcher().executorService().shutdown();
            client.connectionPool().evictAll();
        }
    }

    @Test
    void upgradeSwitchesToHttp2() throws Exception {
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build()) {
            for (int i = 0; i < 3; i++) {
                HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(stub.uri().resolve("/?bytes=1000")).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                assertEquals(HttpClient.Version.HTTP_2, r.version(), "request " + i);
                assertEquals(200, r.statusCode());
                assertEquals(1000, r.body().length);
            }
            HttpResponse<byte[]> post = client.send(HttpRequest.newBuilder(stub.uri().resolve("/"))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[1024])).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals("1024", post.headers().firstValue("x-request-bytes").orElseThrow());
        }
    }
}
