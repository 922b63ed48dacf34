package clientbench.stub;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A bare socket speaking cleartext HTTP/2 by hand (prior knowledge), so tests see exactly the frames the stub sends:
 * the preface and SETTINGS (acknowledging the server's), GET streams whose header block is HPACK literals without
 * indexing, and each frame read as it comes. Nothing is retried, queued or hidden.
 */
final class RawH2 implements AutoCloseable {
    static final int DATA = 0x0;
    static final int HEADERS = 0x1;
    static final int RST_STREAM = 0x3;
    static final int SETTINGS = 0x4;
    static final int GOAWAY = 0x7;
    static final int END_STREAM = 0x1;
    static final int REFUSED_STREAM = 0x7;

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    /** One frame as read: its type, flags, stream and payload. */
    record Frame(int type, int flags, int stream, byte[] payload) {
        /** GOAWAY's last stream id, RST_STREAM's error code. */
        int firstInt() {
            return ((payload[0] & 0x7f) << 24) | ((payload[1] & 0xff) << 16) | ((payload[2] & 0xff) << 8) | (payload[3] & 0xff);
        }

        boolean endsStream() {
            return (type == DATA || type == HEADERS) && (flags & END_STREAM) != 0;
        }
    }

    /** Connects, sends the preface and empty SETTINGS, and acknowledges the server's SETTINGS before returning. */
    RawH2(int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
        socket.setSoTimeout(5_000);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
        out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        frame(SETTINGS, 0, 0, new byte[0]);
        for (int frames = 0; frames < 10; frames++) {
            Frame f = read();
            if (f.type() == SETTINGS && (f.flags() & 1) == 0) {
                frame(SETTINGS, 1, 0, new byte[0]); // the ACK: the server applies its own limits from here
                return;
            }
        }
        throw new IOException("no SETTINGS from the server in its first 10 frames");
    }

    /** Opens stream {@code id} with a GET of {@code path} (no body), and an Idempotency-Key when {@code key} is not null. */
    void get(int id, String path, String key) throws IOException {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.write(0x82); // :method GET, static table 2
        block.write(0x86); // :scheme http, static table 6
        literal(block, 4, path); // :path
        literal(block, 1, "localhost"); // :authority
        if (key != null) {
            block.write(0x00); // a literal name and value, not indexed
            string(block, "idempotency-key");
            string(block, key);
        }
        frame(HEADERS, 0x4 | END_STREAM, id, block.toByteArray()); // END_HEADERS, END_STREAM
    }

    /** The next frame; throws EOFException when the server closed the connection. */
    Frame read() throws IOException {
        int length = (in.readUnsignedByte() << 16) | (in.readUnsignedByte() << 8) | in.readUnsignedByte();
        int type = in.readUnsignedByte();
        int flags = in.readUnsignedByte();
        int stream = in.readInt() & 0x7fffffff;
        byte[] payload = new byte[length];
        in.readFully(payload);
        return new Frame(type, flags, stream, payload);
    }

    /** Every frame until the server closes the connection (at most 1,000). */
    java.util.List<Frame> untilClosed() throws IOException {
        java.util.List<Frame> frames = new java.util.ArrayList<>();
        while (frames.size() < 1_000) {
            try {
                frames.add(read());
            } catch (EOFException e) {
                return frames;
            }
        }
        throw new IOException("the connection still open after 1,000 frames");
    }

    private void frame(int type, int flags, int stream, byte[] payload) throws IOException {
        byte[] head = {(byte) (payload.length >> 16), (byte) (payload.length >> 8), (byte) payload.length, (byte) type,
                (byte) flags, (byte) (stream >> 24), (byte) (stream >> 16), (byte) (stream >> 8), (byte) stream};
        out.write(head);
        out.write(payload);
        out.flush();
    }

    /** A header field whose name is static table entry {@code index}, literal without indexing. */
    private static void literal(ByteArrayOutputStream block, int index, String value) {
        block.write(index); // 0000xxxx: literal without indexing, indexed name (index < 15)
        string(block, value);
    }

    /** A string literal without Huffman coding; values here are shorter than 127 bytes. */
    private static void string(ByteArrayOutputStream block, String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        if (b.length >= 127) {
            throw new IllegalArgumentException("header value too long for this encoder: " + s);
        }
        block.write(b.length);
        block.writeBytes(b);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
