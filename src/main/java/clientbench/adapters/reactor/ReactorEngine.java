package clientbench.adapters.reactor;

import clientbench.adapters.support.NettyLibrary;
import clientbench.adapters.support.OpenChannels;
import clientbench.api.AdapterConfig;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

/**
 * The Reactor Netty client as the reactor adapter builds it, with its own loops, pool and {@link OpenChannels}: for
 * that adapter and for the layers run over it (Spring's), so each measures the same engine. Close it once done.
 */
public final class ReactorEngine implements AutoCloseable {

    private final AdapterConfig config;
    private final LoopResources loops;
    private final EventLoopGroup group;
    private final ConnectionProvider pool;
    private final Scheduler timeouts;
    private final HttpClient client;
    private final ReactorClients.Observed observed = new ReactorClients.Observed();
    private final OpenChannels channels = new OpenChannels();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Its own responseTimeout, per read, is the client's request timeout; else the adapter's Mono.timeout is. */
    private final boolean perRead;

    /** @param name the pool's name; the loops are {@code <name>-adapter} */
    public ReactorEngine(AdapterConfig config, String name) {
        this(config, name, config.tuning().libraryTimeout());
    }

    /**
     * @param responseTimeout the client's own responseTimeout bounds each request, whatever the tuning (reactor-vt, as
     *        Spring's ReactorClientHttpRequestFactory sets it); false: none, where a layer sets it or the adapter times
     */
    public ReactorEngine(AdapterConfig config, String name, boolean responseTimeout) {
        this.config = config;
        this.perRead = responseTimeout;
        int workers = config.ioThreads() > 0 ? config.ioThreads() : LoopResources.DEFAULT_IO_WORKER_COUNT;
        this.loops = LoopResources.create(name + "-adapter", workers, true);
        this.group = loops.onClient(LoopResources.DEFAULT_NATIVE);
        this.timeouts = Schedulers.fromExecutorService(group, name + "-adapter-timeouts");
        this.pool = ReactorClients.pool(config, name, group);
        HttpClient c = HttpClient.create(pool)
                .runOn(loops)
                .protocol(switch (config.protocol()) {
                    case HTTP1, HTTPS1 -> HttpProtocol.HTTP11;
                    case H2C -> HttpProtocol.H2C;
                    case H2 -> HttpProtocol.H2;
                })
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) config.connectTimeout().toMillis())
                .compress(false)
                .followRedirect(false)
                .disableRetry(!config.tuning().libraryRetries())
                .doOnChannelInit(observed.then((o, channel, remote) -> channels.registered(channel)));
        if (config.protocol().tls()) {
            c = c.secure(spec -> spec.sslContext(ReactorClients.spec(config)));
        }
        if (responseTimeout) {
            c = c.responseTimeout(config.requestTimeout());
        }
        this.client = c;
    }

    public HttpClient client() {
        return client;
    }

    /** A scheduler on the engine's own loops, for timeouts that must not start Reactor's JVM-wide threads. */
    public Scheduler timeouts() {
        return timeouts;
    }

    /** The reactor adapter's settings, read back from the live loops, pool and connections. */
    public Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>(ReactorClients.settings(config, group, pool,
                perRead ? client.configuration().responseTimeout() : null, client.configuration().isRetryDisabled()));
        String seen = observed.value;
        if (seen != null) {
            s.put("observedConnection", seen);
        }
        return NettyLibrary.addTo(observed.noDelay.addTo(s));
    }

    /**
     * The failure classes of this engine, bare or under a layer. Netty's read timeout is no
     * {@code java.util.concurrent.TimeoutException}; the pool's exceptions are shaded into Reactor Netty's internal
     * packages, so they are matched by simple name.
     */
    public static Outcome outcomeOf(Throwable failure) {
        for (Throwable c : Outcomes.causes(failure)) {
            if (c instanceof io.netty.handler.timeout.TimeoutException) {
                return Outcome.TIMEOUT;
            }
            String type = c.getClass().getSimpleName();
            if (type.equals("PoolAcquirePendingLimitException") || type.equals("PoolShutdownException")) {
                return Outcome.REJECTED;
            }
        }
        return Outcomes.ofThrowable(failure);
    }

    /**
     * Closes the pool, every connection and the loops, once. Not loops.disposeLater(quiet, timeout): its timeout runs on
     * Reactor's JVM-wide Schedulers.parallel(), whose thread it starts and which outlives close().
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return; // the event loops shut down once: a second shutdown throws
        }
        Duration max = Duration.ofSeconds(5);
        pool.disposeLater().block(max); // closes every idle connection; queued requests fail
        channels.closeAll(max); // and those in use or connecting, which neither the pool nor the loops' shutdown close
        group.shutdownGracefully(0, max.toMillis(), TimeUnit.MILLISECONDS).awaitUninterruptibly(max.plusSeconds(1).toMillis());
    }

    /** Maven coordinates and version of reactor-netty-http, read from its jar. */
    public static String libraryVersion() {
        return clientbench.api.LibraryVersion.of(HttpClient.class, "io.projectreactor.netty", "reactor-netty-http");
    }
}
