package clientbench.behaviour;

import clientbench.stub.StubExtension;
import io.helidon.webclient.api.HttpClientResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import io.helidon.webclient.http1.Http1Client;
import org.asynchttpclient.AsyncHandler;
import org.asynchttpclient.AsyncHttpClient;
import org.asynchttpclient.Dsl;
import org.asynchttpclient.HttpResponseBodyPart;
import org.asynchttpclient.HttpResponseStatus;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Mono;
import reactor.netty.resources.ConnectionProvider;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reuse column with each library alone, no adapter: {@value #REQUESTS} requests in turn, every other answered 500
 * with a 64 KiB body the caller leaves unread, every {@value #CLOSE_EVERY}th answer on a connection ending with
 * Connection: close (the case's habit), and the connections the stub accepted. A library that keeps a connection whose
 * body was left unread opens one per {@value #CLOSE_EVERY} answers; one that drops it, one per body left unread more.
 * Beside each way of leaving a body unread, the same library with the body consumed.
 */
@Timeout(120)
class ReuseLibraryAloneTest {

    static final int REQUESTS = 100;
    static final int CLOSE_EVERY = ConnectionReuse.CLOSE_EVERY;
    /** One connection per Connection: close, and the first: a library that keeps its connections opens no more. */
    static final int KEPT = REQUESTS / CLOSE_EVERY + 1;
    /** Past the case's bound (110 per 1,000): one connection per body left unread, at least. */
    static final int DROPPED = REQUESTS / 2;

    @RegisterExtension
    final StubExtension stub = new StubExtension();

    /** Sends the {@link #REQUESTS} requests through {@code one} (error: whether to ask for a 500); the stub's accepts. */
    private long connections(Send one) throws Exception {
        long before = stub.server().stats().accepted();
        for (int i = 0; i < REQUESTS; i++) {
            boolean error = i % 2 == 0;
            int status = one.send(URI.create("http://127.0.0.1:" + stub.port() + "/?closeEvery=" + CLOSE_EVERY
                    + (error ? "&status=500&bytes=65536" : "&bytes=1024")), error);
            assertEquals(error ? 500 : 200, status, "request " + i);
        }
        return stub.server().stats().accepted() - before;
    }

    @FunctionalInterface
    private interface Send {
        int send(URI uri, boolean error) throws Exception;
    }

    /** Jetty's async API: a listener that does not read the content keeps the connection; Response.abort() drops it. */
    @Test
    void jettyKeepsTheConnectionOfABodyNoListenerReadsAndDropsAnAbortedOne() throws Exception {
        HttpClient jetty = new HttpClient();
        jetty.start();
        try {
            long unread = connections((uri, error) -> jettySend(jetty, uri, false));
            long aborted = connections((uri, error) -> jettySend(jetty, uri, error));
            assertAll("unread " + unread + ", aborted " + aborted,
                    () -> assertTrue(unread <= KEPT, "Jetty reads the rest and keeps the connection: " + unread),
                    () -> assertTrue(aborted >= DROPPED, "abort() closes the connection by contract: " + aborted));
        } finally {
            jetty.stop();
        }
    }

    private static int jettySend(HttpClient jetty, URI uri, boolean abort) throws Exception {
        CompletableFuture<Integer> status = new CompletableFuture<>();
        jetty.newRequest(uri).timeout(5, TimeUnit.SECONDS).send(new Response.Listener() {
            @Override
            public void onHeaders(Response response) {
                if (abort) {
                    response.abort(new java.util.concurrent.CancellationException("not wanted"));
                }
            }

            @Override
            public void onComplete(Result result) {
                status.complete(result.getResponse().getStatus());
            }
        });
        return status.get(10, TimeUnit.SECONDS);
    }

    /** Jetty's blocking stream, closed unread: the listener aborts the response, so its connection closes. */
    @Test
    void jettysInputStreamClosedUnreadDropsTheConnection() throws Exception {
        HttpClient jetty = new HttpClient();
        jetty.start();
        try {
            long closed = connections((uri, error) -> {
                InputStreamResponseListener listener = new InputStreamResponseListener();
                jetty.newRequest(uri).timeout(5, TimeUnit.SECONDS).send(listener);
                Response response = listener.get(10, TimeUnit.SECONDS);
                try (InputStream body = listener.getInputStream()) {
                    if (!error) {
                        body.transferTo(java.io.OutputStream.nullOutputStream());
                    }
                }
                return response.getStatus();
            });
            assertTrue(closed >= DROPPED, "closed unread: " + closed);
        } finally {
            jetty.stop();
        }
    }

    /**
     * The JDK: a body taken as an InputStream and closed unread closes its connection, as BodyHandlers.ofInputStream()
     * says it may; a body discarded (BodyHandlers.discarding(), read and dropped) keeps it.
     */
    @Test
    void jdkDropsTheConnectionOfAStreamClosedUnreadAndKeepsADiscardedOne() throws Exception {
        try (java.net.http.HttpClient jdk = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1).build()) {
            long closed = connections((uri, error) -> {
                HttpResponse<InputStream> r = jdk.send(HttpRequest.newBuilder(uri).build(),
                        HttpResponse.BodyHandlers.ofInputStream());
                try (InputStream body = r.body()) {
                    if (!error) {
                        body.transferTo(java.io.OutputStream.nullOutputStream());
                    }
                }
                return r.statusCode();
            });
            long discarded = connections((uri, error) -> jdk.send(HttpRequest.newBuilder(uri).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode());
            assertAll("closed unread " + closed + ", discarded " + discarded,
                    () -> assertTrue(closed >= DROPPED, "closed unread: " + closed),
                    () -> assertTrue(discarded <= KEPT, "discarded: " + discarded));
        }
    }

    /**
     * AsyncHttpClient: an AsyncHandler that stops at the head (State.ABORT, the way its README reads a status alone)
     * closes the connection; execute()'s own handler reads every body and keeps it.
     */
    @Test
    void ahcDropsTheConnectionOfAnAbortedHandlerAndKeepsABufferedOne() throws Exception {
        try (AsyncHttpClient ahc = Dsl.asyncHttpClient()) {
            long aborted = connections((uri, error) -> ahc.prepareGet(uri.toString()).execute(new AsyncHandler<Integer>() {
                private int status;

                @Override
                public State onStatusReceived(HttpResponseStatus s) {
                    status = s.getStatusCode();
                    return State.CONTINUE;
                }

                @Override
                public State onHeadersReceived(io.netty.handler.codec.http.HttpHeaders headers) {
                    return error ? State.ABORT : State.CONTINUE;
                }

                @Override
                public State onBodyPartReceived(HttpResponseBodyPart part) {
                    return State.CONTINUE;
                }

                @Override
                public void onThrowable(Throwable t) {
                }

                @Override
                public Integer onCompleted() {
                    return status;
                }
            }).get(10, TimeUnit.SECONDS));
            long buffered = connections((uri, error) -> ahc.prepareGet(uri.toString()).execute().get(10, TimeUnit.SECONDS)
                    .getStatusCode());
            assertAll("aborted " + aborted + ", buffered " + buffered,
                    () -> assertTrue(aborted >= DROPPED, "aborted at the head: " + aborted),
                    () -> assertTrue(buffered <= KEPT, "buffered: " + buffered));
        }
    }

    /**
     * Apache async: its users take a response through SimpleResponseConsumer, which reads the body whole whether the
     * caller looks at it or not, so the connection is kept.
     */
    @Test
    void apacheAsyncKeepsTheConnectionOfABodyItsSimpleConsumerReadWhole() throws Exception {
        try (CloseableHttpAsyncClient client = HttpAsyncClients.createDefault()) {
            client.start();
            long simple = connections((uri, error) -> client.execute(SimpleRequestBuilder.get(uri).build(), null)
                    .get(10, TimeUnit.SECONDS).getCode());
            assertTrue(simple <= KEPT, "SimpleResponseConsumer: " + simple);
        }
    }

    /**
     * Helidon: a response closed unread closes its connection (a body not yet read in full is not drained); one read
     * in full first keeps it.
     */
    @Test
    void helidonDropsTheConnectionOfAResponseClosedUnreadAndKeepsAReadOne() throws Exception {
        Http1Client helidon = Http1Client.builder().build();
        long closed = connections((uri, error) -> {
            try (HttpClientResponse r = helidon.get().uri(uri).request()) {
                if (!error) {
                    r.entity().as(byte[].class);
                }
                return r.status().code();
            }
        });
        long read = connections((uri, error) -> {
            try (HttpClientResponse r = helidon.get().uri(uri).request()) {
                r.entity().as(byte[].class);
                return r.status().code();
            }
        });
        assertAll("closed unread " + closed + ", read " + read,
                () -> assertTrue(closed >= DROPPED, "closed unread: " + closed),
                () -> assertTrue(read <= KEPT, "read: " + read));
    }

    /**
     * Reactor Netty: a response whose body is never subscribed ({@code response((head, body) -> ...)} taking the head
     * alone) closes its connection; one whose body is read ({@code responseSingle}) keeps it.
     */
    @Test
    void reactorDropsTheConnectionOfABodyNeverSubscribedAndKeepsAReadOne() throws Exception {
        ConnectionProvider pool = ConnectionProvider.builder("reuse-alone").build();
        try {
            reactor.netty.http.client.HttpClient client = reactor.netty.http.client.HttpClient.create(pool);
            long unsubscribed = connections((uri, error) -> client.get().uri(uri)
                    .response((head, body) -> error ? Mono.just(head.status().code())
                            : body.aggregate().asByteArray().map(b -> head.status().code()))
                    .single().block(Duration.ofSeconds(10)));
            long read = connections((uri, error) -> client.get().uri(uri)
                    .responseSingle((head, body) -> body.asByteArray().map(b -> head.status().code()))
                    .block(Duration.ofSeconds(10)));
            assertAll("body never subscribed " + unsubscribed + ", read " + read,
                    () -> assertTrue(unsubscribed >= DROPPED, "never subscribed: " + unsubscribed),
                    () -> assertTrue(read <= KEPT, "read: " + read));
        } finally {
            pool.disposeLater().block(Duration.ofSeconds(10));
        }
    }
}
