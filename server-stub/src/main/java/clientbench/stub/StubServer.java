package clientbench.stub;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http2.Http2SecurityUtil;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import io.netty.handler.ssl.util.SelfSignedCertificate;
import io.netty.util.concurrent.ScheduledFuture;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.InetSocketAddress;
import java.net.URI;
import java.security.cert.X509Certificate;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The Netty stub every client is measured against. It must never be the bottleneck, so responses are precomputed,
 * delays run on the event loop's timer, one event loop per core. Query parameters: see {@link StubParams}; run with
 * {@code ./bench stub --port 8080} or in-process {@code StubServer.start(StubOptions.loopback())}.
 */
public final class StubServer implements AutoCloseable {

    private final StubOptions options;
    private final StubStats stats = new StubStats();
    private final StubTally tally = new StubTally();
    private final HeldAnswers heldAnswers = new HeldAnswers();
    private final EventLoopGroup group;
    private final Channel serverChannel;
    private final X509Certificate certificate;
    private final String transport;
    private final ScheduledFuture<?> reporter;
    private final CountDownLatch closed = new CountDownLatch(1);
    private final StubResponses responses = new StubResponses();
    /** Every open connection: closed explicitly on close(), since an idle one can outlive the event loop's shutdown. */
    private final ChannelGroup connections;

    private StubServer(StubOptions options) throws Exception {
        this.options = options;
        // Configure TLS: a fresh self-signed certificate each start, ALPN offering h2 then http/1.1.
        SslContext ssl = null;
        X509Certificate cert = null;
        if (options.tls()) {
            SelfSignedCertificate ssc = new SelfSignedCertificate("localhost");
            cert = ssc.cert();
            ssl = SslContextBuilder.forServer(ssc.key(), ssc.cert())
                    .sslProvider(SslProvider.JDK)
                    .ciphers(Http2SecurityUtil.CIPHERS, SupportedCipherSuiteFilter.INSTANCE)
                    .applicationProtocolConfig(new ApplicationProtocolConfig(
                            ApplicationProtocolConfig.Protocol.ALPN,
                            ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                            ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                            ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1))
                    .build();
            ssc.delete();
        }
        this.certificate = cert;

        // Configure the transport: epoll where the native library loads, NIO elsewhere.
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channelType = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        this.transport = epoll ? "epoll" : "nio";
        this.group = new MultiThreadIoEventLoopGroup(options.ioThreads(), io);
        this.connections = new DefaultChannelGroup("stub-connections", group.next());

        // Bind; one group both accepts and serves, so --io-threads is the whole thread budget.
        try {
            ServerBootstrap b = new ServerBootstrap()
                    .group(group)
                    .channel(channelType)
                    .option(ChannelOption.SO_BACKLOG, 4096)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new StubInitializer(stats, responses, tally, heldAnswers, ssl, connections, options.maxStreams()));
            this.serverChannel = b.bind(options.host(), options.port()).sync().channel();
        } catch (Exception e) {
            // NIO throws BindException, epoll a NativeIoException: either way the address is not ours.
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            throw new IllegalStateException("cannot listen on " + options.host() + ":" + options.port()
                    + ": " + e.getMessage(), e);
        }
        this.reporter = options.printStats()
                ? group.next().scheduleAtFixedRate(() -> System.out.println(stats.intervalLine()), 1, 1, TimeUnit.SECONDS)
                : null;
    }

    /** Starts a stub and returns once it is listening. */
    public static StubServer start(StubOptions options) throws Exception {
        return new StubServer(options);
    }

    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** The base URL, e.g. {@code http://127.0.0.1:34567}. */
    public URI uri() {
        String host = options.host().contains(":") ? "[" + options.host() + "]" : options.host();
        return URI.create((options.tls() ? "https://" : "http://") + host + ":" + port());
    }

    /** The self-signed certificate when serving TLS, else null. */
    public X509Certificate certificate() {
        return certificate;
    }

    /** "epoll" or "nio". */
    public String transport() {
        return transport;
    }

    public int openConnections() {
        return stats.openConnections.get();
    }

    /**
     * What the stub counted, for a harness to set beside the client's counts. {@code peakOpen}, {@code usedConnections}
     * and {@code peakStreams} are since the last {@link #mark()}; {@code requests}: received in full since start,
     * answered, faulted or still delayed; {@code cpuNanos}: the stub process's CPU time, -1 where the JVM cannot tell.
     */
    public record Stats(int open, int peakOpen, long accepted, long usedConnections, int peakStreams, long requests,
                        long http2Requests, long cpuNanos) {

        /** One line of JSON, as {@code --control} prints it after {@code "stats "}. */
        public String toJson() {
            return String.format(java.util.Locale.ROOT, "{\"open\":%d,\"peakOpen\":%d,\"accepted\":%d,"
                    + "\"usedConnections\":%d,\"peakStreams\":%d,\"requests\":%d,\"http2Requests\":%d,\"cpuNanos\":%d}",
                    open, peakOpen, accepted, usedConnections, peakStreams, requests, http2Requests, cpuNanos);
        }
    }

    /** The counts now; the peaks and used connections are since the last {@link #mark()}. */
    public Stats stats() {
        return stats.snapshot();
    }

    /** The counts now (as {@link #stats()}), then a new window: peaks and used connections restart. */
    public Stats mark() {
        return stats.mark();
    }

    public long requests() {
        return stats.requests.sum();
    }

    /**
     * What the stub's habits did and saw, since start: connections closed once idle ({@code idleCloses}: FIN or RST;
     * {@code raceCloses}: as a request's head arrived), answers ending with Connection: close ({@code closeEveryCloses}),
     * GOAWAYs sent and the streams they refused, answers whose head was padded as {@code headerBytes} asked
     * ({@code largeHeads}), requests held now and at most at once (read, not yet answered; the most since start or
     * {@link #restartPeakInFlight()}), and the distinct idempotency
     * keys kept (beyond {@link KeyCounts#MAX_KEYS}, {@code untrackedKeys} requests); HTTP/2's WINDOW_UPDATE frames read
     * and written, the pauses of {@code readPauseMs} and the bodies and body bytes read with them, and the streams and
     * connections closed because the client sent past the window granted ({@code flowControlErrors}), and the HTTP/2
     * answers written but not yet sent in full ({@code answersUnsent}, now: on loopback, held back by a closed window);
     * request heads that came on a connection after the stub's FIN ({@code afterFinArrivals}: sent on a closed one);
     * idle closes armed and not yet gone out nor called off ({@code idleClosesPending}, now).
     */
    public record Tally(long idleCloses, long raceCloses, long closeEveryCloses, long goAways, long refusedStreams,
                        long largeHeads, int inFlight, int peakInFlight, long keys, long untrackedKeys,
                        long windowUpdatesIn, long windowUpdatesOut, long readPauses, long pausedBodies,
                        long pausedBodyBytes, long flowControlErrors, int answersUnsent, long afterFinArrivals,
                        int idleClosesPending) {

        /** One line of JSON, as {@code --control} prints it after {@code "tally "}. */
        public String toJson() {
            return String.format(java.util.Locale.ROOT, "{\"idleCloses\":%d,\"raceCloses\":%d,\"closeEveryCloses\":%d,"
                    + "\"goAways\":%d,\"refusedStreams\":%d,\"largeHeads\":%d,\"inFlight\":%d,\"peakInFlight\":%d,\"keys\":%d,"
                    + "\"untrackedKeys\":%d,\"windowUpdatesIn\":%d,\"windowUpdatesOut\":%d,\"readPauses\":%d,"
                    + "\"pausedBodies\":%d,\"pausedBodyBytes\":%d,\"flowControlErrors\":%d,"
                    + "\"answersUnsent\":%d,\"afterFinArrivals\":%d,\"idleClosesPending\":%d}", idleCloses, raceCloses,
                    closeEveryCloses, goAways, refusedStreams, largeHeads, inFlight, peakInFlight, keys, untrackedKeys,
                    windowUpdatesIn, windowUpdatesOut, readPauses, pausedBodies, pausedBodyBytes, flowControlErrors,
                    answersUnsent, afterFinArrivals, idleClosesPending);
        }
    }

    public Tally tally() {
        return tally.snapshot();
    }

    /**
     * {@link Tally#peakInFlight()} restarts from the requests held now, so that a wave sent after it reads its own
     * peak; call it while no request is on its way to the stub.
     */
    public void restartPeakInFlight() {
        tally.restartPeakInFlight();
    }

    /**
     * Lets the answers of the requests that asked to be held ({@code hold=true}) go out, each after its {@code delayMs};
     * from now on none is held. In-process only: a case decides when its slow server answers, not a clock.
     */
    public void releaseHeld() {
        heldAnswers.release();
    }

    /**
     * How many times the stub read the head of each request whose {@code Idempotency-Key} starts with {@code prefix}:
     * 2 is one logical request sent twice. A stream refused by a GOAWAY is not counted (it was not processed), nor a
     * request that came after the stub's FIN ({@link #seenAfterFin}).
     */
    public java.util.Map<String, Integer> seen(String prefix) {
        return tally.read.seen(prefix);
    }

    /** Of those, the requests the idle race closed their connection under, as their head arrived, unanswered. */
    public java.util.Map<String, Integer> seenRaceClosed(String prefix) {
        return tally.raceClosed.seen(prefix);
    }

    /**
     * Requests that came on a connection after the stub had sent its FIN there ({@code idleClose=fin}), by key: each
     * was sent on a connection whose close had reached the client, and was refused unread (a reset), as a closed socket
     * refuses it. Final once that connection closed: the client can fail the request on the FIN before the stub
     * reads it.
     */
    public java.util.Map<String, Integer> seenAfterFin(String prefix) {
        return tally.afterFin.seen(prefix);
    }

    /**
     * Requests answered on HTTP/2 streams: h2c by prior knowledge, h2c by Upgrade (the upgrade request
     * itself included: it is answered on stream 1), and h2 over TLS.
     */
    public long http2Requests() {
        return stats.http2Requests.sum();
    }

    /** Requests answered on HTTP/1.1, including an h2c Upgrade request the stub declined. */
    public long http1Requests() {
        return stats.requests.sum() - stats.http2Requests.sum();
    }

    /** Stops listening, closes every connection and event loop; returns when they are gone. Idempotent. */
    @Override
    public void close() {
        if (closed.getCount() == 0) {
            return;
        }
        synchronized (this) {
            if (closed.getCount() == 0) {
                return;
            }
            if (reporter != null) {
                reporter.cancel(false);
            }
            serverChannel.close().syncUninterruptibly();
            connections.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
            responses.close(); // every connection is gone: no write can touch them any more
            closed.countDown();
        }
    }

    String totalLine() {
        return stats.totalLine();
    }

    void awaitClose() throws InterruptedException {
        closed.await();
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new Cli()).execute(args));
    }

    @Command(name = "stub", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Runs the clientbench stub server in the foreground until SIGTERM or Ctrl-C.")
    static final class Cli implements Callable<Integer> {
        @Option(names = "--port", description = "TCP port; 0 picks a free one and prints it (default: ${DEFAULT-VALUE})")
        int port = 8080;
        @Option(names = "--host", description = "address to bind (default: ${DEFAULT-VALUE}; 0.0.0.0 only if you mean it)")
        String host = "127.0.0.1";
        @Option(names = "--io-threads", description = "event-loop threads (default: cores = ${DEFAULT-VALUE})")
        int ioThreads = Runtime.getRuntime().availableProcessors();
        @Option(names = "--tls", description = "TLS with a self-signed certificate, ALPN h2 and http/1.1")
        boolean tls;
        @Option(names = "--quiet", description = "no per-second line")
        boolean quiet;
        @Option(names = "--max-streams", description = "HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS (default: ${DEFAULT-VALUE})")
        int maxStreams = StubOptions.DEFAULT_MAX_STREAMS;
        @Option(names = "--control", description = "read commands from standard input: 'stats' prints 'stats {json}'"
                + " (counts; peaks since the last mark), 'mark' prints the same, then starts a new window; 'tally' prints"
                + " 'tally {json}' (what its habits did), 'seen PREFIX' 'seen {json}' (times each idempotency key was read)")
        boolean control;
        @Option(names = "--control-port", description = "answer the same commands on a loopback TCP port as well (0: a"
                + " free one, printed as 'stub: control on HOST:PORT'), for harnesses that are not this process's parent")
        Integer controlPort;
        @Option(names = "--exit-with-parent", description = "stop when the process that started this one ends "
                + "(benchmarks use it so that no stub outlives a killed run)")
        boolean exitWithParent;

        @Override
        public Integer call() throws Exception {
            StubServer server;
            try {
                server = StubServer.start(new StubOptions(host, port, ioThreads, tls, !quiet, maxStreams));
            } catch (IllegalArgumentException | IllegalStateException e) {
                System.err.println("stub: " + e.getMessage());
                return 1;
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                server.close();
                System.out.println(server.totalLine());
                System.out.flush();
            }, "stub-shutdown"));
            if (exitWithParent) {
                ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> System.exit(0)));
            }
            if (control) {
                Thread commands = new Thread(() -> control(server, System.in, System.out), "stub-control");
                commands.setDaemon(true);
                commands.start();
            }
            if (controlPort != null) {
                java.net.ServerSocket listener = new java.net.ServerSocket(controlPort, 8,
                        java.net.InetAddress.getLoopbackAddress());
                Thread accepts = new Thread(() -> acceptControl(server, listener), "stub-control-accept");
                accepts.setDaemon(true);
                accepts.start();
                System.out.println("stub: control on " + listener.getInetAddress().getHostAddress() + ":"
                        + listener.getLocalPort());
            }
            System.out.println("stub: listening on " + server.uri() + " (" + server.transport() + ", "
                    + ioThreads + " io threads, " + (tls ? "TLS: h2 and http/1.1 by ALPN" : "http/1.1 and h2c") + ")");
            System.out.flush();
            server.awaitClose();
            return 0;
        }

        /** {"key":count,...}; keys are the clients' own header values, escaped as JSON strings. */
        private static String seenJson(java.util.Map<String, Integer> seen) {
            StringBuilder b = new StringBuilder("{");
            seen.forEach((k, n) -> {
                b.append(b.length() > 1 ? "," : "").append('"');
                k.chars().forEach(c -> b.append(c == '"' || c == '\\' ? "\\" + (char) c
                        : c < 0x20 ? String.format("\\u%04x", c) : String.valueOf((char) c)));
                b.append("\":").append(n);
            });
            return b.append('}').toString();
        }

        /** Each connection to the control port gets {@link #control} of its own, until it closes. */
        private static void acceptControl(StubServer server, java.net.ServerSocket listener) {
            while (true) {
                try {
                    java.net.Socket s = listener.accept();
                    Thread t = new Thread(() -> {
                        try (s) {
                            control(server, s.getInputStream(), new java.io.PrintStream(s.getOutputStream(), true,
                                    java.nio.charset.StandardCharsets.UTF_8));
                        } catch (java.io.IOException e) {
                            // that harness went away
                        }
                    }, "stub-control-" + s.getPort());
                    t.setDaemon(true);
                    t.start();
                } catch (java.io.IOException e) {
                    return; // the listener closed
                }
            }
        }

        /** Answers 'stats', 'mark', 'tally' and 'seen' on {@code input}, one JSON line each, until the input ends. */
        private static void control(StubServer server, java.io.InputStream input, java.io.PrintStream out) {
            try (java.io.BufferedReader in = new java.io.BufferedReader(
                    new java.io.InputStreamReader(input, java.nio.charset.StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    String command = line.trim();
                    synchronized (out) {
                        switch (command.contains(" ") ? command.substring(0, command.indexOf(' ')) : command) {
                            case "stats" -> out.println("stats " + server.stats().toJson());
                            case "mark" -> out.println("stats " + server.mark().toJson());
                            case "tally" -> out.println("tally " + server.tally().toJson());
                            case "seen" -> out.println("seen " + seenJson(server.seen(command.substring(4).trim())));
                            case "" -> { }
                            default -> out.println("stub: unknown command '" + command + "' (stats, mark, tally, seen)");
                        }
                        out.flush();
                    }
                }
            } catch (java.io.IOException e) {
                // the harness went away; --exit-with-parent ends the process
            }
        }
    }
}
