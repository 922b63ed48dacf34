package clientbench.behaviour;

import clientbench.adapters.Adapters;
import clientbench.api.AdapterConfig;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Protocol;
import clientbench.api.Request;
import clientbench.stub.StubOptions;
import clientbench.stub.StubServer;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * What one case runs with: its client, stubs of its own (so every count is the case's alone) and its adapters, on the
 * suite's connection limit and connect timeout, the case's request timeout and tuning. Closing it reads the first
 * adapter's settings, as the live client ended up, then closes every adapter and stub.
 */
final class CaseContext implements AutoCloseable {

    /** The header the stub counts a logical request by. */
    static final String KEY = "Idempotency-Key";
    /**
     * Cases run side by side, but build their clients and send their first request one at a time: a library's first
     * use loads and initialises its classes, which some do not do safely from several threads at once.
     */
    private static final Object FIRST_USE = new Object();

    final String client;
    private final BehaviourCase theCase;
    private final int ioThreads;
    private final BiFunction<String, AdapterConfig, HttpClientAdapter> factory;
    private final List<StubServer> stubs = new ArrayList<>();
    private final List<HttpClientAdapter> adapters = new ArrayList<>();
    private Map<String, String> settings;
    private boolean adaptersClosed;
    private final Map<String, String> observed = new java.util.LinkedHashMap<>();

    CaseContext(String client, BehaviourCase theCase, int ioThreads) {
        this(client, theCase, ioThreads, Adapters::create);
    }

    /** @param factory builds the client from its name and config: the registry's, or a test's client of known habits */
    CaseContext(String client, BehaviourCase theCase, int ioThreads, BiFunction<String, AdapterConfig, HttpClientAdapter> factory) {
        this.client = client;
        this.theCase = theCase;
        this.ioThreads = ioThreads;
        this.factory = factory;
    }

    /** A stub of the case's own on a free loopback port, one event loop. */
    StubServer stub() throws Exception {
        return stub(StubOptions.loopback());
    }

    StubServer stub(StubOptions options) throws Exception {
        StubServer s = StubServer.start(options);
        stubs.add(s);
        return s;
    }

    /**
     * The client on HTTP/1.1 (or {@code protocol}), as the case's tuning has it; over TLS trusting any certificate, as
     * the cases' only servers are their own stubs.
     * @throws BehaviourCase.NotApplicable when the client refuses the protocol (it says why before it starts anything)
     */
    HttpClientAdapter adapter(URI target, Protocol protocol, Duration requestTimeout) throws BehaviourCase.NotApplicable {
        if (adaptersClosed) {
            throw new IllegalStateException("the case's adapters are closed: its counts are being read");
        }
        AdapterConfig config = new AdapterConfig(target, protocol, AdapterConfig.DEFAULT_MAX_CONNECTIONS,
                AdapterConfig.DEFAULT_CONNECT_TIMEOUT, requestTimeout, ioThreads, protocol.tls(), theCase.tuning());
        HttpClientAdapter a;
        try {
            synchronized (FIRST_USE) {
                a = factory.apply(client, config);
            }
        } catch (IllegalArgumentException refused) {
            throw new BehaviourCase.NotApplicable(refused.getMessage());
        }
        adapters.add(a);
        return a;
    }

    HttpClientAdapter adapter(URI target, Duration requestTimeout) throws BehaviourCase.NotApplicable {
        return adapter(target, Protocol.HTTP1, requestTimeout);
    }

    /** The key of this case's logical request {@code what}: unique to the client and the case. */
    String key(String what) {
        return client + "/" + theCase.key() + "/" + what;
    }

    /** A GET carrying the idempotency key of {@code what}; any body length is ok. */
    Request get(URI target, String pathAndQuery, String what) {
        return Request.get(target, pathAndQuery, -1).withHeaders(List.of(new Request.Header(KEY, key(what))));
    }

    /** A POST of 1 KiB carrying the idempotency key of {@code what}. */
    Request post(URI target, String pathAndQuery, String what) {
        return Request.post(target, pathAndQuery, new byte[1024], -1).withHeaders(List.of(new Request.Header(KEY, key(what))));
    }

    /**
     * One ordinary request, waited for: a fresh client's first request loads its classes and opens its first connection,
     * which on a busy machine can take longer than a case's timeout. Its outcome, for the record.
     */
    Map<String, Integer> warmUp(HttpClientAdapter adapter, URI target) throws InterruptedException {
        synchronized (FIRST_USE) {
            CaseRequests.Done done = CaseRequests.sendAndWait(adapter, Request.get(target, "/?bytes=5", 5), WARM_UP_WAIT);
            return CaseRequests.classes(List.of(done));
        }
    }

    /** Far past a cold client's first request on a busy machine. */
    static final Duration WARM_UP_WAIT = Duration.ofSeconds(10);

    /**
     * Records what the live client did under a setting's name (connections opened, from the stub's count): it stands
     * in the settings beside the adapter's own account, which says what was configured.
     */
    void observed(String setting, String what) {
        observed.put(setting, what);
    }

    /**
     * The first adapter's settings, read as it was closed, with what was observed, after the library the live client
     * loaded ({@code library}, as a benchmark's trial records it); null before.
     */
    Map<String, String> settings() {
        return settings;
    }

    /**
     * Reads the first adapter's settings, as the live client ended up, then closes every adapter: once, so that a case
     * can close its clients before it reads the stub's final counts
     * ({@link StubReadCounts#awaitEveryConnectionClosed}).
     */
    void closeAdapters() {
        if (adaptersClosed) {
            return;
        }
        adaptersClosed = true;
        try {
            if (!adapters.isEmpty()) {
                settings = new java.util.LinkedHashMap<>();
                settings.put("library", adapters.get(0).libraryVersion());
                settings.putAll(adapters.get(0).settings());
                observed.forEach((k, v) -> settings.merge(k, v, (configured, live) -> live + "; the adapter's account: "
                        + configured));
            }
        } finally {
            adapters.forEach(HttpClientAdapter::close);
        }
    }

    @Override
    public void close() {
        try {
            closeAdapters();
        } finally {
            stubs.forEach(StubServer::close);
        }
    }
}
