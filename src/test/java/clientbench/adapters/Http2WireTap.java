package clientbench.adapters;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A TCP proxy in front of an h2c server that forwards every byte as it is and reads the frames going each way: per
 * connection, the streams the client opened (id, and its request's {@value #ID_HEADER} header), the streams the server
 * answered in full (END_STREAM) and the GOAWAYs' last-stream-id. What the wire showed, not what either side says.
 */
final class Http2WireTap implements AutoCloseable {

    static final String ID_HEADER = "x-request-id";
    private static final int PREFACE_BYTES = 24;
    private static final int HEADERS = 0x1;
    private static final int GOAWAY = 0x7;
    private static final int CONTINUATION = 0x9;

    /** One connection as the wire showed it; the maps and sets fill as frames pass. */
    static final class Conn {
        final int index;
        final Map<Integer, String> opened = new ConcurrentHashMap<>(); // stream id -> request id
        final Set<Integer> ended = ConcurrentHashMap.newKeySet(); // the server's END_STREAM went by: answered in full
        final List<Integer> goAwayLast = new CopyOnWriteArrayList<>();
        private final CountDownLatch pumps = new CountDownLatch(2);

        Conn(int index) {
            this.index = index;
        }

        /** The second pump to end closes both sockets: each direction was read to its end. */
        private void pumpEnded(Socket from, Socket to) {
            pumps.countDown();
            if (pumps.getCount() == 0) {
                closeQuietly(from);
                closeQuietly(to);
            }
        }
    }

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final List<Conn> conns = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final List<String> errors = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    Http2WireTap(URI server) throws IOException {
        this.target = new InetSocketAddress(server.getHost(), server.getPort());
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = Thread.ofPlatform().daemon().name("wiretap-accept").start(this::accept);
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + listener.getLocalPort());
    }

    /**
     * The connections as the wire showed them, once both directions of each have ended (close the client first): a
     * frame still in a socket's buffer is not missed. Throws if one is still open after {@code wait}.
     */
    List<Conn> connectionsOnceEnded(Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        for (Conn conn : conns) {
            if (!conn.pumps.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                throw new IllegalStateException("connection " + conn.index + " still open after " + wait);
            }
        }
        return List.copyOf(conns);
    }

    /** Frames the tap could not read: a test on its figures must find none. */
    List<String> errors() {
        return List.copyOf(errors);
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(target.getAddress(), target.getPort());
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(server);
                Conn conn = new Conn(conns.size());
                conns.add(conn);
                Thread.ofPlatform().daemon().start(() -> pump(client, server, new Frames(conn, true)));
                Thread.ofPlatform().daemon().start(() -> pump(server, client, new Frames(conn, false)));
            } catch (IOException e) {
                if (!listener.isClosed()) {
                    errors.add("accept: " + e);
                }
            }
        }
    }

    /**
     * Copies {@code from} to {@code to} and reads each frame passing, until {@code from} ends or resets; then ends
     * {@code to}'s output. Once {@code to} refuses a write, reads on without forwarding: the other direction keeps
     * {@code to} open until it has read all {@code to} sent (a GOAWAY before the FIN), so nothing on the wire goes unread.
     */
    private void pump(Socket from, Socket to, Frames frames) {
        byte[] buf = new byte[16 * 1024];
        boolean forwarding = true;
        try {
            InputStream in = from.getInputStream(); // not closed here: closing it would close the socket both pumps use
            OutputStream out = to.getOutputStream();
            int n;
            while ((n = in.read(buf)) >= 0) {
                frames.feed(buf, n); // before forwarding: the other side's answer cannot overtake its record
                if (forwarding) {
                    try {
                        out.write(buf, 0, n);
                        out.flush();
                    } catch (IOException gone) {
                        forwarding = false;
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // from reset: ended below as at end of stream, so the other direction is still read to its end
        } finally {
            try {
                to.shutdownOutput();
            } catch (IOException alreadyClosed) {
                // the peer is gone: nothing to end
            }
            frames.conn.pumpEnded(from, to);
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        sockets.forEach(Http2WireTap::closeQuietly);
        try {
            acceptor.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    /** One direction's frames, read as bytes arrive; header blocks of the client's side HPACK-decoded in order. */
    private final class Frames {
        private final Conn conn;
        private final boolean fromClient;
        private final DefaultHttp2HeadersDecoder decoder = new DefaultHttp2HeadersDecoder(false);
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
        private final ByteArrayOutputStream block = new ByteArrayOutputStream();
        private int blockStream;
        private boolean prefaceSkipped;

        Frames(Conn conn, boolean fromClient) {
            this.conn = conn;
            this.fromClient = fromClient;
            this.prefaceSkipped = !fromClient;
        }

        void feed(byte[] bytes, int n) {
            pending.write(bytes, 0, n);
            byte[] all = pending.toByteArray();
            int at = 0;
            if (!prefaceSkipped) {
                if (all.length < PREFACE_BYTES) {
                    return;
                }
                at = PREFACE_BYTES;
                prefaceSkipped = true;
            }
            while (all.length - at >= 9) {
                int length = (all[at] & 0xff) << 16 | (all[at + 1] & 0xff) << 8 | (all[at + 2] & 0xff);
                if (all.length - at - 9 < length) {
                    break;
                }
                frame(all[at + 3] & 0xff, all[at + 4] & 0xff, readInt(all, at + 5) & 0x7fffffff, all, at + 9, length);
                at += 9 + length;
            }
            pending.reset();
            pending.write(all, at, all.length - at);
        }

        private void frame(int type, int flags, int stream, byte[] b, int from, int length) {
            if (!fromClient && (type == 0x0 || type == HEADERS) && (flags & 0x1) != 0) {
                conn.ended.add(stream);
            }
            switch (type) {
                case HEADERS -> {
                    if (!fromClient) {
                        return; // the server's blocks are not decoded: its END_STREAM is enough
                    }
                    int pad = (flags & 0x8) != 0 ? b[from] & 0xff : 0;
                    int skip = ((flags & 0x8) != 0 ? 1 : 0) + ((flags & 0x20) != 0 ? 5 : 0);
                    block.reset();
                    block.write(b, from + skip, length - skip - pad);
                    blockStream = stream;
                    if ((flags & 0x4) != 0) {
                        decode();
                    }
                }
                case CONTINUATION -> {
                    if (fromClient) {
                        block.write(b, from, length);
                        if ((flags & 0x4) != 0) {
                            decode();
                        }
                    }
                }
                case GOAWAY -> {
                    if (!fromClient) {
                        conn.goAwayLast.add(readInt(b, from) & 0x7fffffff);
                    }
                }
                default -> { }
            }
        }

        private void decode() {
            ByteBuf in = Unpooled.wrappedBuffer(block.toByteArray());
            try {
                Http2Headers h = decoder.decodeHeaders(blockStream, in);
                CharSequence id = h.get(ID_HEADER);
                conn.opened.put(blockStream, id == null ? "?" : id.toString());
            } catch (Http2Exception e) {
                errors.add("stream " + blockStream + ": " + e);
            } finally {
                in.release();
            }
        }
    }

    private static int readInt(byte[] b, int at) {
        return (b[at] & 0xff) << 24 | (b[at + 1] & 0xff) << 16 | (b[at + 2] & 0xff) << 8 | (b[at + 3] & 0xff);
    }
}
