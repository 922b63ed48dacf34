package clientbench.adapters.ahc;

import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.LibraryVersion;
import clientbench.api.Outcome;
import clientbench.api.Request;
import clientbench.adapters.support.AdapterSettings;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import org.asynchttpclient.AsyncHttpClient;
import org.asynchttpclient.DefaultAsyncHttpClient;
import org.asynchttpclient.DefaultAsyncHttpClientConfig;
import org.asynchttpclient.RequestBuilder;

/**
 * AsyncHttpClient 3 (Netty). Docs: https://github.com/AsyncHttpClient/async-http-client
 *
 * <p>Settings that differ from the client's defaults:
 * <ul>
 *   <li>maxConnections and maxConnectionsPerHost = maxConnections (default unlimited). The client
 *       does not queue: with acquireFreeChannelTimeout left at its default 0, a request that finds every
 *       connection busy fails at once with {@code TooManyConnections(PerHost)Exception}, reported as
 *       {@code REJECTED}. That is AsyncHttpClient's own behaviour and is measured as such;</li>
 *   <li>http2Enabled false (default true: ALPN h2 over TLS). AsyncHttpClient 3 has HTTP/2, but h2c and h2
 *       are refused here: wired up, it opened more connections than the limit, sent streams past the
 *       server's SETTINGS_MAX_CONCURRENT_STREAMS, and now and then kept a connection open after close(),
 *       so the contract test could not pass it reliably;</li>
 *   <li>connectTimeout from the config (default 5 s); requestTimeout = requestTimeout (default 60 s,
 *       whole exchange); readTimeout = requestTimeout (default 60 s), so only the request timeout fires;</li>
 *   <li>maxRequestRetry 0 (default 5); cookie store none (default an in-memory store);
 *       enableAutomaticDecompression false (default true); followRedirect false is the default;</li>
 *   <li>shutdownQuietPeriod 0 (default 2 s), so close() need not wait for a quiet event loop; a thread
 *       factory of its own (Netty's {@code DefaultThreadFactory}, as the default) that remembers the
 *       event-loop threads so close() can wait for them to end;</li>
 *   <li>ioThreadsCount = ioThreads when set (default 2 x cores);</li>
 *   <li>{@code Accept-Encoding: identity} sent explicitly; trust-all TLS without host name checks when asked.</li>
 * </ul>
 * A closed AsyncHttpClient never reports the requests it still had, so the adapter keeps the set of
 * requests in flight (one concurrent-set add and remove per request) and reports those at close().
 */
public final class AhcAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final AsyncHttpClient client;
    private final List<Thread> eventLoopThreads = new CopyOnWriteArrayList<>();
    private final Set<AhcExchange> inFlight = ConcurrentHashMap.newKeySet();
    private final Map<String, String> settings;
    private volatile boolean closed;
    /** The last request converted: sending the same shape again skips URL parsing. */
    private volatile Converted last;

    public AhcAdapter(AdapterConfig config) {
        AdapterSettings.refuseHttp2(name(), config, "AsyncHttpClient 3's HTTP/2 is left off: it broke the connection"
                + " limit and, now and then, kept a connection open after close()");
        this.config = config;
        Map<String, String> s = AdapterSettings.common(config,
                "maxConnections and maxConnectionsPerHost; no queue: a request finding all busy is rejected at once",
                "requestTimeout (whole exchange; readTimeout set to the same)");
        s.put("threading", "Netty event loops (NIO), callbacks on them; a hashed-wheel timer thread");
        this.settings = Collections.unmodifiableMap(s);
        DefaultThreadFactory netty = new DefaultThreadFactory("AsyncHttpClient");
        DefaultAsyncHttpClientConfig.Builder builder = new DefaultAsyncHttpClientConfig.Builder()
                .setMaxConnections(config.maxConnections())
                .setMaxConnectionsPerHost(config.maxConnections())
                .setHttp2Enabled(false)
                .setConnectTimeout(config.connectTimeout())
                .setRequestTimeout(config.requestTimeout())
                .setReadTimeout(config.requestTimeout())
                .setMaxRequestRetry(0)
                .setCookieStore(null)
                .setEnableAutomaticDecompression(false)
                .setFollowRedirect(false)
                .setShutdownQuietPeriod(Duration.ZERO)
                .setShutdownTimeout(Duration.ofSeconds(5))
                .setThreadFactory(r -> {
                    Thread t = netty.newThread(r);
                    eventLoopThreads.add(t);
                    return t;
                });
        if (config.ioThreads() > 0) {
            builder.setIoThreadsCount(config.ioThreads());
        }
        if (config.trustAllCertificates() && config.protocol().tls()) {
            builder.setUseInsecureTrustManager(true).setDisableHttpsEndpointIdentificationAlgorithm(true);
        }
        this.client = new DefaultAsyncHttpClient(builder.build());
    }

    @Override
    public void send(Request request, Completion completion) {
        if (closed) {
            completion.complete(Outcome.REJECTED, 0, new RejectedExecutionException(name() + " is closed"));
            return;
        }
        AhcExchange handler = new AhcExchange(config, request, completion, inFlight);
        inFlight.add(handler);
        try {
            client.executeRequest(toAhc(request), handler);
        } catch (RuntimeException e) { // refused before it started, e.g. after close()
            handler.onThrowable(e);
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            client.close(); // stops the timer (joins its thread) and starts the event loops' shutdown
        } catch (Exception e) {
            throw new IllegalStateException("closing AsyncHttpClient failed", e);
        } finally {
            inFlight.forEach(AhcExchange::abandon);
            for (Thread t : eventLoopThreads) {
                try {
                    t.join(5_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
    }

    @Override
    public String libraryVersion() {
        return LibraryVersion.of(AsyncHttpClient.class, "org.asynchttpclient", "async-http-client");
    }

    @Override
    public Map<String, String> settings() {
        return settings;
    }

    @Override
    public String name() {
        return "ahc";
    }

    private org.asynchttpclient.Request toAhc(Request request) {
        Converted c = last;
        if (c != null && c.source == request) {
            return c.converted;
        }
        RequestBuilder b = new RequestBuilder(request.method())
                .setUrl(request.uri().toString());
        request.headers().forEach(h -> b.addHeader(h.name(), h.value()));
        if (request.hasBody()) {
            b.setHeader("Content-Type", request.contentType()).setBody(request.body());
        }
        org.asynchttpclient.Request converted = b.build();
        last = new Converted(request, converted);
        return converted;
    }

    private record Converted(Request source, org.asynchttpclient.Request converted) {
    }
}
