package clientbench.adapters;

import io.netty.handler.ssl.util.SelfSignedCertificate;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * A tiny HTTP/1.1 server giving every request one canned response and recording each request's head and the body bytes
 * that really arrived, and with TLS the protocols offered by ALPN, to check what a client puts on the wire. Loopback
 * only; its platform threads all end in close().
 */
final class RecordingServer implements AutoCloseable {

    private final ServerSocket server;
    private final byte[] response;
    private final boolean tls;
    private final List<String> heads = new CopyOnWriteArrayList<>();
    private final List<String> rawHeads = new CopyOnWriteArrayList<>();
    private final List<Long> bodies = new CopyOnWriteArrayList<>();
    private final List<String> bodyDigests = new CopyOnWriteArrayList<>();
    private final List<List<String>> alpnOffers = new CopyOnWriteArrayList<>();
    private final List<Socket> connections = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();

    /** Plain HTTP. */
    RecordingServer(String response) throws IOException {
        this(response, null);
    }

    /** HTTPS with a fresh self-signed certificate, answering ALPN with http/1.1 when offered. */
    @SuppressWarnings("deprecation") // Netty's SelfSignedCertificate: deprecated, still the shortest way to one
    static RecordingServer tls(String response) throws Exception {
        SelfSignedCertificate certificate = new SelfSignedCertificate("localhost");
        try {
            return tls(response, certificate.key(), certificate.cert());
        } finally {
            certificate.delete();
        }
    }

    /** HTTPS with this key and certificate. */
    static RecordingServer tls(String response, PrivateKey key, X509Certificate certificate) throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("stub", key, new char[0], new Certificate[] {certificate});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, new char[0]);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), null, null);
        return new RecordingServer(response, context);
    }

    private RecordingServer(String response, SSLContext tls) throws IOException {
        this.response = response.getBytes(StandardCharsets.ISO_8859_1);
        this.tls = tls != null;
        this.server = tls == null ? new ServerSocket() : tls.getServerSocketFactory().createServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        start(this::accept);
    }

    URI uri() {
        return URI.create((tls ? "https" : "http") + "://127.0.0.1:" + server.getLocalPort());
    }

    /** With TLS: the protocols each connection offered by ALPN (empty when it sent no ALPN). */
    List<List<String>> alpnOffers() {
        return List.copyOf(alpnOffers);
    }

    /** Each request's head, lower-cased, in arrival order. */
    List<String> heads() {
        return List.copyOf(heads);
    }

    /** Each request's head as it arrived (case kept), in arrival order. */
    List<String> rawHeads() {
        return List.copyOf(rawHeads);
    }

    /**
     * The body bytes each request really delivered, in arrival order, by its Content-Length or its chunked
     * framing: a request whose body falls short never completes and is not listed.
     */
    List<Long> bodies() {
        return List.copyOf(bodies);
    }

    /** Each request's body as its SHA-256 in hex, in arrival order (beside {@link #bodies()}). */
    List<String> bodyDigests() {
        return List.copyOf(bodyDigests);
    }

    static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(digest().digest(bytes));
    }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private void accept() {
        try {
            while (true) {
                Socket s = server.accept();
                if (s instanceof SSLSocket ssl) {
                    ssl.setHandshakeApplicationProtocolSelector((socket, offered) -> {
                        alpnOffers.add(List.copyOf(offered));
                        return offered.contains("http/1.1") ? "http/1.1" : null;
                    });
                }
                connections.add(s);
                start(() -> serve(s));
            }
        } catch (IOException closed) {
            // close() closed the listening socket
        }
    }

    private void serve(Socket s) {
        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            while (true) {
                String head = readHead(in);
                if (head == null) {
                    return;
                }
                String lower = head.toLowerCase(Locale.ROOT);
                rawHeads.add(head);
                heads.add(lower);
                long length;
                MessageDigest body = digest();
                if (lower.contains("\ntransfer-encoding: chunked\r\n")) {
                    length = skipChunks(in, body);
                } else {
                    length = lower.lines().filter(l -> l.startsWith("content-length:"))
                            .mapToLong(l -> Long.parseLong(l.substring(l.indexOf(':') + 1).trim())).findFirst().orElse(0);
                    read(in, length, body);
                }
                bodies.add(length);
                bodyDigests.add(HexFormat.of().formatHex(body.digest()));
                out.write(response);
                out.flush();
            }
        } catch (IOException closed) {
            // the client or close() ended the connection
        }
    }

    /** Reads {@code n} bytes into the digest. */
    private static void read(InputStream in, long n, MessageDigest into) throws IOException {
        byte[] buffer = new byte[16 * 1024];
        for (long left = n; left > 0; ) {
            int got = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (got < 0) {
                throw new java.io.EOFException("connection closed inside a body");
            }
            into.update(buffer, 0, got);
            left -= got;
        }
    }

    /** Reads a chunked body to its last chunk and trailers into the digest; returns the data bytes it carried. */
    private static long skipChunks(InputStream in, MessageDigest into) throws IOException {
        long total = 0;
        while (true) {
            String size = readLine(in);
            long n = Long.parseLong(size.split(";", 2)[0].trim(), 16);
            if (n == 0) {
                while (!readLine(in).isEmpty()) {
                    // trailers
                }
                return total;
            }
            read(in, n, into);
            total += n;
            readLine(in); // the CRLF after the chunk's data
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b; (b = in.read()) != '\n'; ) {
            if (b < 0) {
                throw new java.io.EOFException("connection closed inside a chunked body");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
            if (matched == 4) {
                return head.toString(StandardCharsets.ISO_8859_1);
            }
        }
        return null;
    }

    private void start(Runnable task) {
        Thread t = Thread.ofPlatform().daemon().name("recording-server").start(task);
        threads.add(t);
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : connections) {
            s.close();
        }
        try {
            for (Thread t : threads) {
                t.join(5_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
