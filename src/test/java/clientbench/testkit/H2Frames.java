package clientbench.testkit;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Cleartext HTTP/2 frames by hand, for the test clients that speak it on a bare socket (the stub's raw client, the
 * behaviour cases' known h2c client): the preface, a frame written and read as RFC 9113 lays it out, and HPACK string
 * literals without Huffman coding. Nothing is buffered, retried or hidden.
 */
public final class H2Frames {
    public static final int DATA = 0x0;
    public static final int HEADERS = 0x1;
    public static final int RST_STREAM = 0x3;
    public static final int SETTINGS = 0x4;
    public static final int GOAWAY = 0x7;
    public static final int END_STREAM = 0x1;
    public static final int END_HEADERS = 0x4;
    public static final int REFUSED_STREAM = 0x7;
    /** The setting a server's SETTINGS frame limits concurrent streams with. */
    public static final int MAX_CONCURRENT_STREAMS = 0x3;
    /** The client's connection preface, before its first SETTINGS. */
    public static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private H2Frames() {
    }

    /** One frame as read: its type, flags, stream and payload. */
    public record Frame(int type, int flags, int stream, byte[] payload) {
        /** GOAWAY's last stream id, RST_STREAM's error code (0 when the payload is shorter). */
        public int firstInt() {
            return payload.length < 4 ? 0 : intAt(payload, 0) & 0x7fffffff;
        }

        public boolean endsStream() {
            return (type == DATA || type == HEADERS) && (flags & END_STREAM) != 0;
        }
    }

    /** The 32-bit big-endian number at {@code i} of {@code b}. */
    public static int intAt(byte[] b, int i) {
        return ((b[i] & 0xff) << 24) | ((b[i + 1] & 0xff) << 16) | ((b[i + 2] & 0xff) << 8) | (b[i + 3] & 0xff);
    }

    /** The next frame from {@code in}; EOFException when the peer closed the connection. */
    public static Frame read(DataInputStream in) throws IOException {
        int length = (in.readUnsignedByte() << 16) | (in.readUnsignedByte() << 8) | in.readUnsignedByte();
        int type = in.readUnsignedByte();
        int flags = in.readUnsignedByte();
        int stream = in.readInt() & 0x7fffffff;
        byte[] payload = new byte[length];
        in.readFully(payload);
        return new Frame(type, flags, stream, payload);
    }

    /** One frame to {@code out}, flushed; a caller with several writers holds {@code out}'s lock around it. */
    public static void write(OutputStream out, int type, int flags, int stream, byte[] payload) throws IOException {
        byte[] head = {(byte) (payload.length >> 16), (byte) (payload.length >> 8), (byte) payload.length, (byte) type,
                (byte) flags, (byte) (stream >> 24), (byte) (stream >> 16), (byte) (stream >> 8), (byte) stream};
        out.write(head);
        out.write(payload);
        out.flush();
    }

    /** A string literal without Huffman coding; values here are shorter than 127 bytes. */
    public static void string(ByteArrayOutputStream block, String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        if (b.length >= 127) {
            throw new IllegalArgumentException("header value too long for this encoder: " + s);
        }
        block.write(b.length);
        block.writeBytes(b);
    }
}
