package clientbench.behaviour.alone;

import clientbench.stub.StubExtension;
import clientbench.stub.StubOptions;
import clientbench.stub.StubServer;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.InputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;


/**
 * Jetty 12's HttpClient NO cells with Jetty alone: a GET sent as its connection closes, failed (closed in flight), and a
 * stream a GOAWAY refused, failed and never sent again (h2 goaway).
 */
@Timeout(60)
class JettyAloneTest {

    @RegisterExtension
    final StubExtension stub = new StubExtension();
    private final ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor();
    private HttpClient client;

    /** How the suite's two Jetty clients call: jetty with a listener, jetty-vt reading an InputStream on its thread. */
    enum Style {
        LISTENER, INPUT_STREAM
    }

    @AfterEach
    void close() throws Exception {
        callers.shutdownNow();
        if (client != null) {
            client.stop();
        }
    }

    /**
     * jetty and jetty-vt, h2 goaway (129 and 142 fail): h2c (HTTP/2 by prior knowledge), one caller, 40 requests in
     * turn; the GOAWAYs refuse the 20th and 40th streams, unprocessed, and Jetty fails both, sending neither again
     * (RetryableRequestException: its HTTP/2 transport leaves the resend to the application; or ClosedChannelException
     * when the connection's close is read first).
     */
    @ParameterizedTest
    @EnumSource(Style.class)
    void aStreamAGoAwayRefusedFailsUnsent(Style style) throws Exception {
        client = new HttpClient(new HttpClientTransportOverHTTP2(new HTTP2Client()));
        client.start();
        String url = stub.uri() + "/?goAwayEvery=20";
        RefusedStreams.assertBothFail(stub.server(), key -> send(style, client.newRequest(url)
                .headers(h -> h.put(StubHabits.KEY, key))).get(10, TimeUnit.SECONDS));
    }

    /**
     * jetty and jetty-vt, closed in flight (GET lost): each answer followed at once by a FIN; Jetty sends the next
     * request on that connection before it has read the close and fails it, a GET too, never sending it again.
     */
    @ParameterizedTest
    @EnumSource(Style.class)
    void aGetSentAsItsConnectionClosesFails(Style style) throws Exception {
        client = new HttpClient();
        client.start();
        ClosedInFlight.Counts c = ClosedInFlight.run(stub.server(), (method, url, key) -> {
            Request r = client.newRequest(url).method(method).headers(h -> h.put(StubHabits.KEY, key));
            if (method.equals("POST")) {
                r.body(new BytesRequestContent(new byte[1024]));
            }
            return send(style, r).get(10, TimeUnit.SECONDS);
        }, () -> client.stop(), ClosedInFlight.ROUNDS, x -> x.getsFailed() >= 1);
        ClosedInFlight.assertAGetLost(c.toString(), c);
    }

    /**
     * jetty and jetty-vt, unclosed body (64,64): 500s with 1 MiB bodies, each taken through an
     * InputStreamResponseListener whose stream is neither read nor closed once the head is in (how both adapters leave
     * it, and jetty-vt's users read); after two collections and a request elsewhere the stub still has each open.
     */
    @Test
    void forgottenInputStreamsHoldTheirConnectionsAfterACollection() throws Exception {
        client = new HttpClient();
        client.start();
        try (StubServer elsewhere = StubServer.start(StubOptions.loopback())) {
            int held = ForgottenBodies.heldAfterCollection(stub.server(), elsewhere, ForgottenBodies.LEFT_OPEN,
                    (url, key) -> {
                        InputStreamResponseListener listener = new InputStreamResponseListener();
                        client.newRequest(url).headers(h -> h.put(StubHabits.KEY, key)).send(listener);
                        return listener.get(10, TimeUnit.SECONDS).getStatus();
                    },
                    url -> assertEquals("200", send(Style.LISTENER, client.newRequest(url)
                            .headers(h -> h.put(StubHabits.KEY, "housekeeping"))).get(10, TimeUnit.SECONDS)));
            assertEquals(ForgottenBodies.LEFT_OPEN, held, "unclosed body: held 64,64 after GC (NO)");
        }
    }

    /** The status, or the failure's class. */
    private CompletableFuture<String> send(Style style, Request request) {
        CompletableFuture<String> f = new CompletableFuture<>();
        if (style == Style.LISTENER) {
            request.send(new Response.Listener() {
                @Override
                public void onComplete(Result r) {
                    f.complete(r.isSucceeded() ? String.valueOf(r.getResponse().getStatus())
                            : InTurn.failure(r.getFailure()));
                }
            });
            return f;
        }
        return CompletableFuture.supplyAsync(() -> {
            InputStreamResponseListener listener = new InputStreamResponseListener();
            request.send(listener);
            try (InputStream body = listener.getInputStream()) {
                Response r = listener.get(10, TimeUnit.SECONDS);
                body.readAllBytes();
                return String.valueOf(r.getStatus());
            } catch (Exception e) {
                return InTurn.failure(e);
            }
        }, callers);
    }
}
