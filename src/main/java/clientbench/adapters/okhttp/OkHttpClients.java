package clientbench.adapters.okhttp;

import clientbench.api.AdapterConfig;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import clientbench.api.TimeoutKind;
import clientbench.api.TrustAllCertificates;
import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.Http2Ramp;
import java.net.SocketTimeoutException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
import okhttp3.OkHttp;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.internal.concurrent.TaskRunner;
import okhttp3.internal.connection.ConnectionListener;

/**
 * The OkHttp client both adapters use, with its own {@code TaskRunner} (via okhttp3.internal: re-check on every OkHttp
 * upgrade), as the JVM-wide one's threads outlive close() by 60 s. Okio's JVM-wide {@code Okio Watchdog} thread cannot
 * be ended; the contract test excludes it by name.
 */
final class OkHttpClients {

    /** {@code ConnectionPool()}'s idle connections. */
    static final int LIBRARY_IDLE_CONNECTIONS = 5;

    private OkHttpClients() {
    }

    /** The client plus the threads it runs on, which close() ends. */
    static final class Owned implements AutoCloseable {
        private final OkHttpClient client;
        private final ExecutorService dispatcherThreads;
        private final TaskRunner.RealBackend taskThreads;
        private final OpenSockets sockets;

        private Owned(OkHttpClient client, ExecutorService dispatcherThreads, TaskRunner.RealBackend taskThreads,
                      OpenSockets sockets) {
            this.client = client;
            this.dispatcherThreads = dispatcherThreads;
            this.taskThreads = taskThreads;
            this.sockets = sockets;
        }

        OkHttpClient client() {
            return client;
        }

        /** The client's settings, with TCP_NODELAY read from its open sockets and the rest from the live client. */
        Map<String, String> settings(AdapterConfig config, String connectionLimit, String threading) {
            Map<String, String> s = new java.util.LinkedHashMap<>(OkHttpClients.settings(config, connectionLimit, threading));
            s.put("retries", client.retryOnConnectionFailure()
                    ? "retryOnConnectionFailure true (the default): a call whose connection fails is sent again on another"
                    : "off (retryOnConnectionFailure false); OkHttp still repeats a 503 with Retry-After: 0 once");
            s.put("requestTimeout", "callTimeout " + client.callTimeoutMillis() + " ms (read from the live client), from"
                    + " when the dispatcher runs the call; readTimeout " + client.readTimeoutMillis() + " ms, writeTimeout "
                    + client.writeTimeoutMillis() + " ms");
            s.put("dispatcherLimits", "maxRequests " + client.dispatcher().getMaxRequests() + ", maxRequestsPerHost "
                    + client.dispatcher().getMaxRequestsPerHost() + " (read from the live dispatcher)");
            return sockets.noDelay().addTo(Collections.unmodifiableMap(s));
        }

        /** The request as OkHttp's users write it, on every send: the URL string is parsed each time. */
        okhttp3.Request toOkHttp(Request request) {
            okhttp3.Request.Builder b = new okhttp3.Request.Builder()
                    .url(request.uri().toString());
            request.headers().forEach(h -> b.addHeader(h.name(), h.value()));
            b.method(request.method(), request.hasBody()
                    ? RequestBody.create(request.body(), okhttp3.MediaType.get(request.contentType())) : null);
            return b.build();
        }

        /**
         * Cancels calls, ends the dispatcher's threads, closes connections, ends the task runner, then closes
         * every socket the client opened that is still open (a race with close() left one behind the pool's
         * back: {@link OpenSockets}). Calls that start after this fail to connect.
         */
        @Override
        public void close() {
            client.dispatcher().cancelAll();
            dispatcherThreads.shutdown();
            await(dispatcherThreads);
            client.connectionPool().evictAll();
            // Interrupting the runner's coordinator makes it cancel every queued task and return.
            taskThreads.getExecutor().shutdownNow();
            await(taskThreads.getExecutor());
            sockets.closeAll();
        }

        private static void await(ExecutorService executor) {
            try {
                executor.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static Owned create(AdapterConfig config, ExecutorService dispatcherThreads) {
        TaskRunner.RealBackend taskThreads = new TaskRunner.RealBackend(
                Thread.ofPlatform().name("okhttp-taskrunner-", 0).daemon().factory());
        TaskRunner taskRunner = new TaskRunner(taskThreads, TaskRunner.Companion.getLogger());
        OpenSockets sockets = new OpenSockets();
        Dispatcher dispatcher = new Dispatcher(dispatcherThreads);
        if (AdapterSettings.adapterLimits(config)) {
            dispatcher.setMaxRequests(Http2Ramp.initialLimit(config));
            dispatcher.setMaxRequestsPerHost(Http2Ramp.initialLimit(config));
        }
        // The library's own pool keeps 5 idle connections; the suite's keeps as many as it may open.
        int idle = config.tuning().libraryLimits() ? LIBRARY_IDLE_CONNECTIONS : config.maxConnections();
        OkHttpClient.Builder builder = new OkHttpClient.Builder()
                .protocols(protocols(config.protocol()))
                .dispatcher(dispatcher)
                .connectionPool(new ConnectionPool(idle, 5, TimeUnit.MINUTES, taskRunner,
                        ConnectionListener.Companion.getNONE()))
                .connectTimeout(config.connectTimeout())
                .callTimeout(config.requestTimeout())
                .readTimeout(config.requestTimeout())
                .writeTimeout(config.requestTimeout())
                .retryOnConnectionFailure(config.tuning().libraryRetries())
                .followRedirects(false)
                .followSslRedirects(false)
                .socketFactory(sockets);
        builder.taskRunner$okhttp(taskRunner);
        if (config.trustAllCertificates() && config.protocol().tls()) {
            builder.sslSocketFactory(TrustAllCertificates.sslContext().getSocketFactory(),
                    TrustAllCertificates.trustManager()).hostnameVerifier((host, session) -> true);
        }
        return new Owned(builder.build(), dispatcherThreads, taskThreads, sockets);
    }

    /**
     * h2c by prior knowledge; for h2 OkHttp requires HTTP_1_1 next to HTTP_2, so ALPN offers both and
     * {@link #wrongVersion} catches an http/1.1 answer.
     */
    private static List<Protocol> protocols(clientbench.api.Protocol protocol) {
        return switch (protocol) {
            case HTTP1, HTTPS1 -> List.of(Protocol.HTTP_1_1);
            case H2C -> List.of(Protocol.H2_PRIOR_KNOWLEDGE);
            case H2 -> List.of(Protocol.HTTP_2, Protocol.HTTP_1_1);
        };
    }

    static boolean isHttp2(Response response) {
        return response.protocol() == Protocol.HTTP_2 || response.protocol() == Protocol.H2_PRIOR_KNOWLEDGE;
    }

    /** Null when the response came on the pinned HTTP version, else the cause to report it as OTHER with. */
    static IllegalStateException wrongVersion(AdapterConfig config, Response response) {
        return isHttp2(response) == AdapterSettings.http2(config) ? null
                : AdapterSettings.wrongVersion(config, response.protocol().toString());
    }

    /** OkHttp reports a connect timeout as a plain {@code SocketTimeoutException}: that is a connect failure. */
    static Outcome outcomeOf(Throwable failure) {
        SocketTimeoutException timeout = Outcomes.cause(failure, SocketTimeoutException.class);
        if (timeout != null && String.valueOf(timeout.getMessage()).startsWith("Connect timed out")) {
            return Outcome.CONNECT;
        }
        return Outcomes.ofThrowable(failure);
    }

    /** @param threading where calls run, which is also where OkHttp does its (blocking) I/O */
    static Map<String, String> settings(AdapterConfig config, String connectionLimit, String threading) {
        boolean http2 = AdapterSettings.http2(config);
        Map<String, String> s = AdapterSettings.common(config, http2
                        ? connectionLimit + "; on HTTP/2 " + Http2Ramp.LIMIT : connectionLimit, TimeoutKind.TOTAL,
                "callTimeout (from the start of the call; read/write timeouts set to the same)");
        if (config.protocol() == clientbench.api.Protocol.H2) {
            s.put("httpVersion", "HTTP/2 over TLS; ALPN offers h2 and http/1.1 (OkHttp requires http/1.1 next to h2),"
                    + " an http/1.1 answer is reported as other");
        }
        AdapterSettings.http2OneConnection(s, config, "OkHttp carries every call to a host on one HTTP/2 connection,"
                + " opened by the first call alone; " + Http2Ramp.STREAMS + " calls at once (" + Http2Ramp.LIMIT_REASON
                + "), more wait in the queue; past the server's limit OkHttp would open a second connection");
        s.put("threading", threading);
        s.put("connectionPool", "up to " + (config.tuning().libraryLimits() ? LIBRARY_IDLE_CONNECTIONS + " (the library's)"
                : "maxConnections") + " idle, 5 min keep-alive, own TaskRunner");
        s.put("fastFallback", "client default (on)");
        AdapterSettings.ioThreads(s, 0, "none: OkHttp has no I/O threads; it does blocking I/O on the thread that"
                + " runs the call, see threading");
        return Collections.unmodifiableMap(s);
    }

    static String libraryVersion() {
        return "com.squareup.okhttp3:okhttp-jvm:" + OkHttp.VERSION;
    }
}
