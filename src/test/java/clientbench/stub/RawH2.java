package clientbench.stub;

import clientbench.testkit.H2Frames;
import clientbench.testkit.H2Frames.Frame;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * A bare socket speaking cleartext HTTP/2 by hand (prior knowledge), so tests see exactly the frames the stub sends:
 * the preface and SETTINGS (acknowledging the server's), GET streams whose header block is HPACK literals without
 * indexing, and each frame read as it comes. Nothing is retried, queued or hidden.
 */
final class RawH2 implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    /** Connects, sends the preface and empty SETTINGS, and acknowledges the server's SETTINGS before returning. */
    RawH2(int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
        socket.setSoTimeout(5_000);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
        out.write(H2Frames.PREFACE);
        H2Frames.write(out, H2Frames.SETTINGS, 0, 0, new byte[0]);
        for (int frames = 0; frames < 10; frames++) {
            Frame f = read();
            if (f.type() == H2Frames.SETTINGS && (f.flags() & 1) == 0) {
                // the ACK: the server applies its own limits from here
                H2Frames.write(out, H2Frames.SETTINGS, 1, 0, new byte[0]);
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
            H2Frames.string(block, "idempotency-key");
            H2Frames.string(block, key);
        }
        H2Frames.write(out, H2Frames.HEADERS, H2Frames.END_HEADERS | H2Frames.END_STREAM, id, block.toByteArray());
    }

    /** Opens stream {@code id} with a POST of {@code path} whose body follows in {@link #data} frames. */
    void post(int id, String path) throws IOException {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.write(0x83); // :method POST, static table 3
        block.write(0x86); // :scheme http, static table 6
        literal(block, 4, path); // :path
        literal(block, 1, "localhost"); // :authority
        H2Frames.write(out, H2Frames.HEADERS, H2Frames.END_HEADERS, id, block.toByteArray());
    }

    /** A DATA frame of {@code bytes} zeros on stream {@code id}, ending it when {@code end}; no flow control kept. */
    void data(int id, int bytes, boolean end) throws IOException {
        H2Frames.write(out, H2Frames.DATA, end ? H2Frames.END_STREAM : 0, id, new byte[bytes]);
    }

    /** A WINDOW_UPDATE (type 0x8) of {@code increment} bytes on stream {@code id} (0: the connection). */
    void windowUpdate(int id, int increment) throws IOException {
        H2Frames.write(out, 0x8, 0, id, java.nio.ByteBuffer.allocate(4).putInt(increment).array());
    }

    /** The next frame; throws EOFException when the server closed the connection. */
    Frame read() throws IOException {
        return H2Frames.read(in);
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

    /** A header field whose name is static table entry {@code index}, literal without indexing. */
    private static void literal(ByteArrayOutputStream block, int index, String value) {
        block.write(index); // 0000xxxx: literal without indexing, indexed name (index < 15)
        H2Frames.string(block, value);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
