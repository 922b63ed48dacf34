package clientbench.adapters.apache;

import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.LibraryVersion;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import clientbench.api.TrustAllCertificates;
import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.DeadlineTimer;
import clientbench.adapters.support.VirtualThreads;
import java.io.OutputStream;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.client5.http.ssl.NoopHostnameVerifier;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;

/**
 * Apache HttpClient 5 classic (blocking, {@code HttpClients.custom()}), one virtual thread per request.
 * Docs: https://hc.apache.org/httpcomponents-client-5.6.x/
 *
 * <p>Settings that differ from the client's defaults:
 * <ul>
 *   <li>{@code PoolingHttpClientConnectionManager} max total and max per route = maxConnections
 *       (default 25 and 5); virtual threads beyond wait for a lease in the pool;</li>
 *   <li>HTTP/1.1: the classic client speaks nothing else, so h2c and h2 are refused at construction;</li>
 *   <li>connect timeout from the config (default 3 min);</li>
 *   <li>request timeout: the client has no whole-exchange timeout, so a {@link DeadlineTimer} cancels the
 *       request (closing its connection) when the request timeout passes, reported as {@code TIMEOUT};</li>
 *   <li>redirects, cookies, automatic retries and content compression disabled (all on by default);</li>
 *   <li>{@code Accept-Encoding: identity} sent explicitly; trust-all TLS with {@code NoopHostnameVerifier} when asked.</li>
 * </ul>
 * Virtual threads come from a per-adapter thread-per-task executor named {@code apache-vt-N}.
 */
public final class ApacheVtAdapter implements HttpClientAdapter {

    private final AdapterConfig config;
    private final CloseableHttpClient client;
    private final DeadlineTimer deadlines;
    private final ExecutorService threads;
    private final Map<String, String> settings;

    public ApacheVtAdapter(AdapterConfig config) {
        AdapterSettings.refuseHttp2(name(), config,
                "Apache HttpClient 5 classic (blocking) has no HTTP/2 support; only the async client (apache) has");
        this.config = config;
        Map<String, String> s = AdapterSettings.common(config,
                "pool max total = max per route = maxConnections; more wait for a lease",
                "adapter deadline cancels the request (the client has no whole-exchange timeout)");
        s.put("threading", VirtualThreads.THREADING + "; one deadline thread of the adapter");
        this.settings = Collections.unmodifiableMap(s);
        PoolingHttpClientConnectionManagerBuilder pool = PoolingHttpClientConnectionManagerBuilder.create()
                .setMaxConnTotal(config.maxConnections())
                .setMaxConnPerRoute(config.maxConnections())
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(config.connectTimeout())).build());
        if (config.trustAllCertificates() && config.protocol().tls()) {
            pool.setTlsSocketStrategy(ClientTlsStrategyBuilder.create().setSslContext(TrustAllCertificates.sslContext())
                    .setHostnameVerifier(NoopHostnameVerifier.INSTANCE).buildClassic());
        }
        this.client = HttpClients.custom()
                .setConnectionManager(pool.build())
                .disableRedirectHandling()
                .disableCookieManagement()
                .disableAutomaticRetries()
                .disableContentCompression()
                .build();
        this.deadlines = new DeadlineTimer(name() + "-deadline");
        this.threads = VirtualThreads.perRequest(name());
    }

    @Override
    public void send(Request request, Completion completion) {
        VirtualThreads.start(threads, completion, () -> exchange(request, completion));
    }

    /** Runs on the request's virtual thread. */
    private void exchange(Request request, Completion completion) {
        HttpUriRequestBase r = new HttpUriRequestBase(request.method(), request.uri());
        request.headers().forEach(h -> r.addHeader(h.name(), h.value()));
        if (request.hasBody()) {
            r.setEntity(new ByteArrayEntity(request.body(), ContentType.parse(request.contentType())));
        }
        AtomicBoolean timedOut = new AtomicBoolean();
        ScheduledFuture<?> deadline = null;
        Outcome outcome;
        int status = 0;
        long bodyBytes = -1;
        Throwable failure = null;
        try {
            deadline = deadlines.schedule(config.requestTimeout(), () -> {
                timedOut.set(true);
                r.cancel();
            });
            long[] bytes = new long[1];
            status = client.execute(r, response -> {
                bytes[0] = response.getEntity() == null ? 0
                        : response.getEntity().getContent().transferTo(OutputStream.nullOutputStream());
                return response.getCode();
            });
            bodyBytes = bytes[0];
            outcome = Outcomes.ofResponse(request, status, bodyBytes);
        } catch (Exception e) {
            if (timedOut.get()) { // the deadline's cancel shows up as whatever the aborted I/O threw
                failure = new TimeoutException("request timeout of " + config.requestTimeout().toMillis() + " ms passed")
                        .initCause(e);
                outcome = Outcome.TIMEOUT;
            } else {
                failure = e;
                outcome = ApacheAdapter.outcomeOf(e);
            }
        } finally {
            if (deadline != null) {
                deadline.cancel(false);
            }
        }
        completion.complete(outcome, status, bodyBytes, failure);
    }

    @Override
    public void close() {
        client.close(CloseMode.IMMEDIATE);
        VirtualThreads.shutdown(threads);
        deadlines.close();
    }

    @Override
    public String libraryVersion() {
        return LibraryVersion.of(CloseableHttpClient.class, "org.apache.httpcomponents.client5", "httpclient5");
    }

    @Override
    public Map<String, String> settings() {
        return settings;
    }

    @Override
    public String name() {
        return "apache-vt";
    }
}
