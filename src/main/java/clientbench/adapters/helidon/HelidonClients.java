package clientbench.adapters.helidon;

import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.Http2Ramp;
import clientbench.adapters.support.NoDelayTally;
import clientbench.adapters.support.VirtualThreads;
import clientbench.api.AdapterConfig;
import clientbench.api.Protocol;
import clientbench.api.Request;
import clientbench.api.TimeoutKind;
import clientbench.api.TrustAllCertificates;
import io.helidon.builder.api.RuntimeType;
import io.helidon.common.socket.SocketOptions;
import io.helidon.common.tls.Tls;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.encoding.ContentEncodingContext;
import io.helidon.webclient.api.ClientRequest;
import io.helidon.webclient.api.ConnectedSocketChannelInfo;
import io.helidon.webclient.api.ConnectedSocketInfo;
import io.helidon.webclient.api.ConnectionListener;
import io.helidon.webclient.api.DefaultDnsResolver;
import io.helidon.webclient.api.HttpClient;
import io.helidon.webclient.api.HttpClientConfig;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http2.Http2Client;
import io.helidon.webclient.http2.Http2ClientProtocolConfig;
import io.helidon.webclient.spi.DnsResolver;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Builds and describes the Helidon client of the adapter: {@code Http1Client} for http1 and https1,
 * {@code Http2Client} with prior knowledge for h2c and h2 (over TLS prior knowledge makes ALPN offer h2
 * alone, and there is no fallback to HTTP/1.1: a server without h2 fails the request).
 */
final class HelidonClients {

    /**
     * Helidon's default resolver, with the resolved address carrying the host as the URL gives it. Helidon checks
     * the certificate against {@code InetSocketAddress.getHostName()}, which for an IP literal is a reverse DNS
     * lookup: https://127.0.0.1 would be checked as "localhost" (and pay a reverse lookup per TLS connection).
     */
    private static final DnsResolver HOST_AS_GIVEN = (host, lookup) -> {
        InetAddress resolved = DefaultDnsResolver.create().resolveAddress(host, lookup);
        try {
            return InetAddress.getByAddress(host.startsWith("[") ? host.substring(1, host.length() - 1) : host,
                    resolved.getAddress());
        } catch (UnknownHostException e) {
            throw new IllegalStateException("address of " + host + " is neither IPv4 nor IPv6: " + resolved, e);
        }
    };

    /** The body buffer for a response of unknown length; bodies of known length get one of their size. */
    private static final int UNKNOWN_LENGTH_BUFFER = 8 * 1024;
    private static final int MAX_BUFFER = 16 * 1024;

    /** The builder's default size of the connection cache (idle connections kept per client). */
    static final int LIBRARY_CONNECTION_CACHE = 256;

    private HelidonClients() {
    }

    static HttpClient<?> create(AdapterConfig config, Sockets sockets) {
        return AdapterSettings.http2(config)
                ? common(Http2Client.builder(), config, sockets)
                        .protocolConfig(Http2ClientProtocolConfig.builder().priorKnowledge(true).build())
                        .build()
                : common(Http1Client.builder(), config, sockets).build();
    }

    /** The settings both clients share; every one differs from Helidon's defaults (docs/reference/clients.md). */
    private static <B extends HttpClientConfig.BuilderBase<B, ?>> B common(B builder, AdapterConfig config, Sockets sockets) {
        builder.connectionListener(sockets)
                // Helidon's default leaves Nagle's algorithm on (SocketOptions.tcpNoDelay false); every other
                // client sets TCP_NODELAY. Over HTTP/2 Nagle holds small frames until the server's delayed ACK, which
                // would set Helidon's h2 latency rather than its code. Merged with the timeouts below.
                .socketOptions(SocketOptions.builder().tcpNoDelay(true).build())
                .dnsResolver(HOST_AS_GIVEN)
                .connectTimeout(config.connectTimeout())
                .readTimeout(config.requestTimeout())
                .followRedirects(false)
                .keepAlive(true)
                .sendExpectContinue(false)
                .shareConnectionCache(false)
                .connectionCacheSize(config.tuning().libraryLimits() ? LIBRARY_CONNECTION_CACHE : config.maxConnections())
                .contentEncoding(ContentEncodingContext.builder().contentEncodingsDiscoverServices(false).build());
        if (config.trustAllCertificates() && config.protocol().tls()) {
            builder.tls(Tls.builder().sslContext(TrustAllCertificates.sslContext())
                    .endpointIdentificationAlgorithm(Tls.ENDPOINT_IDENTIFICATION_NONE).build());
        }
        return builder;
    }

    /** The live client's read timeout, from its configuration. */
    private static String readTimeout(HttpClient<?> client) {
        return client instanceof RuntimeType.Api<?> api && api.prototype() instanceof HttpClientConfig c
                ? c.readTimeout().map(d -> d.toMillis() + " ms").orElse("none") : "not readable";
    }

    /** Starts the exchange; the caller reads and closes the response. */
    static <R extends ClientRequest<R>> HttpClientResponse call(HttpClient<R> client, Request request) {
        R r = client.method(Method.create(request.method())).uri(request.uri());
        request.headers().forEach(h -> r.header(HeaderNames.create(h.name()), h.value()));
        return request.hasBody()
                ? r.header(HeaderNames.CONTENT_TYPE, request.contentType()).submit(request.body())
                : r.request();
    }

    /**
     * Every socket Helidon connects for the adapter, so close() can close those it lost: 4.5.0 closes an HTTP/1.1
     * connection whose exchange failed only when reading the status line; one failed elsewhere is in no cache and stays
     * open until the socket is garbage-collected.
     */
    static final class Sockets implements ConnectionListener {
        /** Held weakly: a socket Helidon let go of (a forgotten response's) is the collector's to close, as without it. */
        private final Set<Socket> connected = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));
        private final AtomicLong count = new AtomicLong();
        private final NoDelayTally noDelay = new NoDelayTally("as it connected");

        @Override
        public void socketConnected(ConnectedSocketInfo info) {
            noDelay.read(info.socket());
            connected.add(info.socket());
            if (count.incrementAndGet() % 256 == 0) {
                connected.removeIf(Socket::isClosed); // keeps the set to the sockets still open
            }
        }

        @Override
        public void socketChannelConnected(ConnectedSocketChannelInfo info) {
            // Unix domain sockets only; the adapter never connects one
        }

        /** Connections opened so far. */
        long opened() {
            return count.get();
        }

        /** TCP_NODELAY as read from each socket Helidon connected. */
        NoDelayTally noDelay() {
            return noDelay;
        }

        void closeAll() {
            List<Socket> open;
            synchronized (connected) {
                open = List.copyOf(connected);
            }
            for (Socket s : open) {
                try {
                    s.close();
                } catch (IOException e) {
                    // closing anyway; nothing else to do with it
                }
            }
            connected.clear();
        }
    }

    /**
     * Reads the body to its end and returns its length. Helidon allocates a fresh buffer of each read's
     * length for every read (the final one, which finds the end, included), so {@code transferTo}'s 16 KiB
     * reads cost three 16 KiB arrays for a 5-byte body; a buffer of the body's size costs three of that size.
     */
    static long drain(HttpClientResponse response, long expectedBytes) throws IOException {
        int size = expectedBytes < 0 ? UNKNOWN_LENGTH_BUFFER : (int) Math.clamp(expectedBytes, 16, MAX_BUFFER);
        byte[] buffer = new byte[size];
        long total = 0;
        try (InputStream in = response.inputStream()) {
            for (int n; (n = in.read(buffer)) != -1; ) {
                total += n;
            }
        }
        return total;
    }

    /** @param client the live client, whose configuration says its read timeout */
    static Map<String, String> settings(AdapterConfig config, HttpClient<?> client) {
        boolean http2 = AdapterSettings.http2(config);
        Map<String, String> s = AdapterSettings.common(config, http2
                        ? Http2Ramp.LIMIT + " on a fair semaphore, in their virtual thread (over TLS concurrent first"
                        + " requests each open a connection, and Helidon opens another when the streams are full)"
                        : AdapterSettings.adapterLimits(config)
                        ? "at most maxConnections exchanges at once; more wait on a fair semaphore in their virtual thread"
                        : "none: Helidon has no connection limit, and the adapter adds none (the library's own)",
                config.tuning().libraryTimeout() ? TimeoutKind.PER_READ : TimeoutKind.SUITE,
                (config.tuning().libraryTimeout() ? "readTimeout alone" : "adapter deadline interrupts the exchange (the"
                        + " client has no whole-exchange timeout); readTimeout the same") + ": readTimeout "
                        + readTimeout(client) + " (read from the live client's configuration), each socket read's");
        s.put("retries", "none: Helidon WebClient does not send a request again (nothing to turn off)");
        s.put("threading", VirtualThreads.THREADING + (config.tuning().libraryTimeout() ? ""
                : "; one deadline thread of the adapter"));
        s.put("ioThreads", "0");
        s.put("ioThreadsKind", "none: blocking sockets on virtual threads" + (http2 ? ", one reader virtual thread per HTTP/2"
                + " connection" : "") + "; Helidon has no I/O-thread setting");
        s.put("body", "read through a buffer of the expected body's size (16 B to 16 KiB; 8 KiB when unknown), new per request");
        AdapterSettings.http2Connections(s, config, "1");
        if (http2) {
            s.put("h2Streams", "at most " + Http2Ramp.STREAMS + " (the adapter's ramp: one request until the first response,"
                    + " then " + Http2Ramp.STREAMS + "); more wait on its semaphore. Helidon waits for the server's"
                    + " SETTINGS before its first stream and opens another connection when its streams are full");
        }
        if (config.protocol().tls()) {
            s.put("tlsProvider", "JDK (JSSE): Helidon's Tls over an SSLContext" + (config.protocol() == Protocol.H2
                    ? "; ALPN offers h2 only (prior knowledge)" : "; ALPN offers http/1.1"));
        }
        return Collections.unmodifiableMap(s);
    }
}
