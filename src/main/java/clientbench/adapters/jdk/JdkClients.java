package clientbench.adapters.jdk;

import clientbench.api.AdapterConfig;
import clientbench.api.Protocol;
import clientbench.api.TimeoutKind;
import clientbench.api.TrustAllCertificates;
import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.Http2Ramp;
import clientbench.adapters.support.OpenBodies;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Flow;

/**
 * The JDK client both JDK adapters use. No h2c by prior knowledge: a connection's first request is an HTTP/1.1 Upgrade
 * (a response still on HTTP/1.1 is {@code OTHER}). Connect retry off, set as this class loads, as the JDK reads it once
 * per JVM; a GET whose connection dies before the first byte, or a refused stream, is still resent once.
 */
public final class JdkClients {

    /** The JDK's switch for its connect retry, read once per JVM. */
    static final String DISABLE_RETRY_CONNECT = "jdk.httpclient.disableRetryConnect";

    static {
        if (System.getProperty(DISABLE_RETRY_CONNECT) == null) {
            System.setProperty(DISABLE_RETRY_CONNECT, "true");
        }
    }

    private JdkClients() {
    }

    public static HttpClient newClient(AdapterConfig config) {
        HttpClient.Builder builder = HttpClient.newBuilder()
                .version(AdapterSettings.http2(config) ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1)
                .connectTimeout(config.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER);
        if (config.trustAllCertificates() && config.protocol().tls()) {
            builder.sslContext(TrustAllCertificates.sslContext());
        }
        return builder.build();
    }

    static HttpRequest toJdk(clientbench.api.Request request, Duration timeout) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(request.uri())
                .timeout(timeout);
        request.headers().forEach(h -> builder.header(h.name(), h.value()));
        if (request.hasBody()) {
            builder.header("Content-Type", request.contentType())
                    .method(request.method(), HttpRequest.BodyPublishers.ofByteArray(request.body()));
        } else {
            builder.method(request.method(), HttpRequest.BodyPublishers.noBody());
        }
        return builder.build();
    }

    /** Null when the response came on the pinned HTTP version, else the cause to report it as OTHER with. */
    static IllegalStateException wrongVersion(AdapterConfig config, HttpResponse<?> response) {
        boolean http2 = response.version() == HttpClient.Version.HTTP_2;
        return http2 == AdapterSettings.http2(config) ? null : AdapterSettings.wrongVersion(config, response.version().name());
    }

    /** HttpRequest.timeout ends at the response headers before JDK 26 (JDK-8208693), of the JDK running it. */
    public static TimeoutKind timeoutKind() {
        return Runtime.version().feature() >= 26 ? TimeoutKind.TOTAL : TimeoutKind.HEADERS;
    }

    /** What the live client runs with, read from it: its selector thread and the retry switch. */
    public static Map<String, String> settings(AdapterConfig config, HttpClient client, String connectionLimit,
                                               String threading) {
        Map<String, String> s = AdapterSettings.common(config, connectionLimit, timeoutKind(),
                "HttpRequest.timeout, less time queued in the adapter; up to the response headers before JDK 26");
        if (config.protocol() == Protocol.H2C) {
            s.put("httpVersion", "HTTP/2 cleartext by Upgrade (the client cannot do prior knowledge): the first request"
                    + " on each new connection is HTTP/1.1 with Upgrade: h2c, answered on stream 1; later ones are streams");
        } else if (config.protocol() == Protocol.H2) {
            s.put("httpVersion", "HTTP/2 over TLS; ALPN offers h2 and http/1.1 (fixed in the client)");
        }
        AdapterSettings.http2OneConnection(s, config, "the client carries every request to a host on one HTTP/2"
                + " connection, opened by the first request alone, and fails a stream beyond the server's limit; so "
                + Http2Ramp.STREAMS + " requests at once (" + Http2Ramp.LIMIT_REASON + "), more wait in the adapter");
        s.put("threading", threading);
        String disabled = System.getProperty(DISABLE_RETRY_CONNECT);
        boolean off = disabled != null && (disabled.isEmpty() || Boolean.parseBoolean(disabled)); // as the JDK reads it
        s.put("retries", "connect retry " + (off ? "off" : "ON") + " ("
                + DISABLE_RETRY_CONNECT + "=" + disabled + "); still retried once, with"
                + " no switch: an HTTP/1.1 GET/HEAD whose connection closes or resets before the first response byte,"
                + " and an HTTP/2 stream refused (REFUSED_STREAM) or unprocessed (GOAWAY)");
        AdapterSettings.tcpNoDelay(s, true, "set by the JDK on every connection it opens"
                + " (jdk.internal.net.http.PlainHttpConnection); no setting, and no socket to read it back from");
        AdapterSettings.ioThreads(s, selectorThreads(client), "the client's one selector thread (HttpClient-<id>-SelectorManager,"
                + " no knob), counted by name; exchanges complete on its default executor (a cached pool)");
        return Collections.unmodifiableMap(s);
    }

    /**
     * The client's selector threads alive now, found by the name the JDK gives them ("HttpClient-7-SelectorManager");
     * -1 when the client no longer names itself as JDK 25 does (the contract test then fails, a trial does not).
     */
    private static int selectorThreads(HttpClient client) {
        String text = client.toString(); // "...HttpClientImpl@1b2c3d(7)": the JDK's own tests read the id this way
        int open = text.lastIndexOf('(');
        if (open < 0 || !text.endsWith(")")) {
            return -1;
        }
        String id = text.substring(open + 1, text.length() - 1);
        String name = "HttpClient-" + id + "-SelectorManager";
        return (int) Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name)).count();
    }

    /** The adapters' connection limit, as settings() records it. */
    public static String connectionLimit(AdapterConfig config, String http1Limit) {
        return AdapterSettings.http2(config) ? http1Limit + "; on HTTP/2 " + Http2Ramp.LIMIT : http1Limit;
    }

    /** {@code shutdownNow} aborts what is in flight; then waits (bounded) for the client's threads. */
    public static void shutdown(HttpClient client) {
        client.shutdownNow();
        try {
            client.awaitTermination(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Reads a response body to its end, counting its bytes without keeping them: the response's body is the count. */
    static final HttpResponse.BodyHandler<Long> COUNT_BODY =
            info -> HttpResponse.BodySubscribers.fromSubscriber(new BodyCounter(), BodyCounter::count);

    /**
     * Leaves the body unread, as a caller that closes the body's InputStream at once: the subscription is cancelled as
     * it starts, and the client decides what becomes of the connection. The response's body is -1.
     */
    static final HttpResponse.BodyHandler<Long> ABANDON_BODY = info -> new HttpResponse.BodySubscriber<>() {
        @Override
        public java.util.concurrent.CompletionStage<Long> getBody() {
            return java.util.concurrent.CompletableFuture.completedStage(-1L);
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.cancel();
        }

        @Override
        public void onNext(List<ByteBuffer> item) {
        }

        @Override
        public void onError(Throwable throwable) {
        }

        @Override
        public void onComplete() {
        }
    };

    /**
     * What the caller does with the body: reads it to its end, closes it unread, or takes it as
     * {@code BodyHandlers.ofInputStream()} and forgets the stream, neither read nor closed ({@code leftOpen} holds it).
     */
    static HttpResponse.BodyHandler<Long> body(clientbench.api.Request request, OpenBodies leftOpen) {
        if (request.leavesBodyOpen()) {
            return info -> HttpResponse.BodySubscribers.mapping(HttpResponse.BodySubscribers.ofInputStream(), in -> {
                leftOpen.hold(in, java.io.InputStream::close);
                return -1L;
            });
        }
        return request.abandonsBody() ? ABANDON_BODY : COUNT_BODY;
    }

    /** One new counter per response. */
    static final class BodyCounter implements Flow.Subscriber<List<ByteBuffer>> {

        private long count;

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            for (ByteBuffer b : buffers) {
                count += b.remaining();
            }
        }

        @Override
        public void onError(Throwable failure) {
            // the client completes the exchange exceptionally with the same failure
        }

        @Override
        public void onComplete() {
            // the finisher reads the count
        }

        private long count() {
            return count;
        }
    }

    /** The JDK's client has no jar: its module and the runtime's version. */
    public static String libraryVersion() {
        return "java.net.http:" + Runtime.version();
    }
}
