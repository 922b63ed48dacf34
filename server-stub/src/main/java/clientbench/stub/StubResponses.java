package clientbench.stub;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Response bytes, computed once and shared by every connection. An HTTP/1.1 response for a small body
 * is one ready buffer (status line, headers and body) that each write only duplicates; larger bodies
 * are slices of one shared body buffer, so a 1 MiB response costs no copy and no allocation.
 */
final class StubResponses {

    /** Bodies up to this size are stored inside the ready-made response. */
    private static final int INLINE_BODY_MAX = 16 * 1024;
    /** Enough for every status, size and keep-alive mix a benchmark uses; beyond it responses are built per request. */
    private static final int CACHE_MAX = 4096;
    static final String CONTENT_TYPE = "application/octet-stream";
    static final String REQUEST_BYTES_HEADER = "x-request-bytes";

    /**
     * The shared buffers live as long as the server and are released by {@link #close()}, not per write
     * (writes get unreleasable views); Netty's leak detector has nothing to track on them.
     */
    private static final ByteBufAllocator SHARED = new UnpooledByteBufAllocator(true, true);

    private final ConcurrentHashMap<Long, ByteBuf> http1Cache = new ConcurrentHashMap<>();
    /** Every shared buffer this instance made, to release on close. */
    private final java.util.Queue<ByteBuf> owned = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private volatile ByteBuf bodies = pattern(64 * 1024);

    /** A complete HTTP/1.1 response; the caller writes it and must not keep it. */
    ByteBuf http1(int status, int bytes, boolean keepAlive, boolean head, long requestBytes) {
        return http1(status, bytes, keepAlive, head, requestBytes, 0);
    }

    /** With {@code headerBytes} above 0, the head padded to that many bytes ({@link #pad}); built per request. */
    ByteBuf http1(int status, int bytes, boolean keepAlive, boolean head, long requestBytes, int headerBytes) {
        int bodyLength = hasNoBody(status) ? 0 : bytes;
        if (headerBytes > 0) {
            return compose(status, bodyLength, keepAlive, head, requestBytes, headerBytes);
        }
        if (requestBytes < 0 && bodyLength <= INLINE_BODY_MAX) {
            long key = ((long) status << 40) | ((long) bodyLength << 2) | (keepAlive ? 2 : 0) | (head ? 1 : 0);
            ByteBuf ready = http1Cache.get(key);
            if (ready == null) {
                if (http1Cache.size() >= CACHE_MAX) {
                    return compose(status, bodyLength, keepAlive, head, -1, 0);
                }
                ByteBuf composed = compose(status, bodyLength, keepAlive, head, -1, 0);
                ByteBuf shared = own(SHARED.directBuffer(composed.readableBytes()).writeBytes(composed));
                composed.release();
                ByteBuf raced = http1Cache.putIfAbsent(key, shared);
                ready = raced != null ? raced : shared;
            }
            return ready.duplicate();
        }
        return compose(status, bodyLength, keepAlive, head, requestBytes, 0);
    }

    /**
     * A response whose body goes out in chunks of {@link StubParams#CHUNK_BYTES} ({@code Transfer-Encoding:
     * chunked}); built per request, as chunked answers are for tests and are not measured.
     */
    ByteBuf http1Chunked(int status, int bytes, boolean keepAlive, boolean head, long requestBytes, int headerBytes) {
        int bodyLength = hasNoBody(status) ? 0 : bytes;
        String headers = pad(statusLine(status)
                + "content-type: " + CONTENT_TYPE + "\r\n"
                + "transfer-encoding: chunked\r\n"
                + (keepAlive ? "" : "connection: close\r\n")
                + (requestBytes >= 0 ? REQUEST_BYTES_HEADER + ": " + requestBytes + "\r\n" : "")
                + "\r\n", headerBytes);
        io.netty.buffer.CompositeByteBuf out = Unpooled.compositeBuffer(Integer.MAX_VALUE);
        out.addComponent(true, Unpooled.wrappedBuffer(headers.getBytes(StandardCharsets.US_ASCII)));
        if (!head) {
            for (int from = 0; from < bodyLength; from += StubParams.CHUNK_BYTES) {
                int n = Math.min(StubParams.CHUNK_BYTES, bodyLength - from);
                out.addComponent(true, Unpooled.wrappedBuffer((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII)));
                out.addComponent(true, body(bodyLength).slice(from, n));
                out.addComponent(true, Unpooled.wrappedBuffer("\r\n".getBytes(StandardCharsets.US_ASCII)));
            }
            out.addComponent(true, Unpooled.wrappedBuffer("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
        }
        return out;
    }

    /** The head of a response announcing {@code bytes} of body, and the first half of that body only. */
    ByteBuf http1Truncated(int bytes) {
        return Unpooled.wrappedBuffer(http1Head(200, bytes), body(bytes / 2));
    }

    /** The head alone of a response announcing {@code bytes} of body (Content-Length). */
    ByteBuf http1Head(int status, int bytes) {
        String headers = statusLine(status) + "content-type: " + CONTENT_TYPE + "\r\ncontent-length: " + bytes + "\r\n\r\n";
        return Unpooled.wrappedBuffer(headers.getBytes(StandardCharsets.US_ASCII));
    }

    /** A 400 (or other) response whose body is a plain-text reason; built per request, errors are rare. */
    ByteBuf http1Text(int status, String reason, boolean keepAlive) {
        byte[] body = (reason + "\n").getBytes(StandardCharsets.UTF_8);
        String head = statusLine(status)
                + "content-type: text/plain; charset=utf-8\r\n"
                + "content-length: " + body.length + "\r\n"
                + (keepAlive ? "" : "connection: close\r\n")
                + "\r\n";
        return Unpooled.wrappedBuffer(head.getBytes(StandardCharsets.US_ASCII), body);
    }

    /** The same response as an object, for HTTP/2 streams (Netty's codec turns it into frames). */
    FullHttpResponse http2(int status, int bytes, long requestBytes) {
        return http2(status, bytes, requestBytes, false);
    }

    /** With {@code chunked}, no Content-Length: the length is known only from the end of the stream. */
    FullHttpResponse http2(int status, int bytes, long requestBytes, boolean chunked) {
        return http2(status, bytes, requestBytes, chunked, 0);
    }

    /** With {@code headerBytes} above 0, the padding headers an HTTP/1.1 head of that many bytes would carry. */
    FullHttpResponse http2(int status, int bytes, long requestBytes, boolean chunked, int headerBytes) {
        int bodyLength = hasNoBody(status) ? 0 : bytes;
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status),
                body(bodyLength));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, CONTENT_TYPE);
        if (!forbidsContentLength(status) && !chunked) {
            r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bodyLength);
        }
        if (requestBytes >= 0) {
            r.headers().set(REQUEST_BYTES_HEADER, Long.toString(requestBytes));
        }
        if (headerBytes > 0) {
            for (String line : padLines(headerBytes - statusLine(status).length() - 2)) {
                int colon = line.indexOf(':');
                r.headers().add(line.substring(0, colon), line.substring(colon + 2));
            }
        }
        return r;
    }

    /** The head of an HTTP/2 response announcing {@code bytes} of body; the stream is then cut after half of it. */
    io.netty.handler.codec.http.HttpResponse http2TruncatedHead(int bytes) {
        io.netty.handler.codec.http.HttpResponse r = new io.netty.handler.codec.http.DefaultHttpResponse(
                HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, CONTENT_TYPE);
        r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bytes);
        return r;
    }

    FullHttpResponse http2Text(int status, String reason) {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status),
                Unpooled.copiedBuffer(reason + "\n", StandardCharsets.UTF_8));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, r.content().readableBytes());
        return r;
    }

    private ByteBuf compose(int status, int bodyLength, boolean keepAlive, boolean head, long requestBytes,
                            int headerBytes) {
        String headers = pad(statusLine(status)
                + "content-type: " + CONTENT_TYPE + "\r\n"
                + (forbidsContentLength(status) ? "" : "content-length: " + bodyLength + "\r\n")
                + (keepAlive ? "" : "connection: close\r\n")
                + (requestBytes >= 0 ? REQUEST_BYTES_HEADER + ": " + requestBytes + "\r\n" : "")
                + "\r\n", headerBytes);
        ByteBuf headBuf = Unpooled.wrappedBuffer(headers.getBytes(StandardCharsets.US_ASCII));
        if (head || bodyLength == 0) {
            return headBuf;
        }
        if (bodyLength <= INLINE_BODY_MAX) {
            return Unpooled.directBuffer(headBuf.readableBytes() + bodyLength)
                    .writeBytes(headBuf).writeBytes(body(bodyLength));
        }
        return Unpooled.wrappedBuffer(headBuf, body(bodyLength));
    }

    /** A read-only view of {@code n} body bytes; grows the shared buffer on first need, up to 64 MiB. */
    ByteBuf body(int n) {
        ByteBuf b = bodies;
        if (b.capacity() < n) {
            synchronized (this) {
                b = bodies;
                if (b.capacity() < n) {
                    b = pattern(Math.min(StubParams.MAX_BYTES, Math.max(n, b.capacity() * 2)));
                    bodies = b;
                }
            }
        }
        return b.slice(0, n);
    }

    private ByteBuf pattern(int n) {
        ByteBuf b = SHARED.directBuffer(n, n);
        for (int i = 0; i < n; i++) {
            b.writeByte('a' + i % 26);
        }
        return own(b);
    }

    /** Keeps {@code b} for {@link #close()} and hands out a read-only view that writes cannot release. */
    private ByteBuf own(ByteBuf b) {
        owned.add(b);
        return Unpooled.unreleasableBuffer(b.asReadOnly());
    }

    /** Frees the shared buffers; only once no connection can write any more. */
    void close() {
        for (ByteBuf b; (b = owned.poll()) != null; ) {
            b.release();
        }
        http1Cache.clear();
    }

    /** Padding headers are lines of at most this many bytes (a browser's limit for one cookie), as many as it takes. */
    static final int PAD_LINE_BYTES = 4096;

    /**
     * {@code head} (status line to blank line) with headers {@code x-large-1}, {@code x-large-2}, ... added before its
     * blank line so that it is {@code headerBytes} long in all; unchanged when {@code headerBytes} is 0.
     */
    static String pad(String head, int headerBytes) {
        if (headerBytes == 0) {
            return head;
        }
        StringBuilder b = new StringBuilder(headerBytes).append(head, 0, head.length() - 2);
        padLines(headerBytes - head.length()).forEach(line -> b.append(line).append("\r\n"));
        return b.append("\r\n").toString();
    }

    /** Header lines ({@code name: value}, without their CRLF) of {@code room} bytes in all, CRLFs included. */
    private static java.util.List<String> padLines(int room) {
        if (room < 32) {
            throw new IllegalArgumentException("headerBytes leaves no room past the stub's own headers");
        }
        int lines = (room + PAD_LINE_BYTES - 1) / PAD_LINE_BYTES;
        java.util.List<String> out = new java.util.ArrayList<>(lines);
        for (int i = 1; i <= lines; i++) {
            int length = room / lines + (i <= room % lines ? 1 : 0) - 2;
            StringBuilder line = new StringBuilder(length).append("x-large-").append(i).append(": ");
            for (int j = line.length(); j < length; j++) {
                line.append((char) ('a' + j % 26));
            }
            out.add(line.toString());
        }
        return out;
    }

    private static String statusLine(int status) {
        return "HTTP/1.1 " + status + " " + HttpResponseStatus.valueOf(status).reasonPhrase() + "\r\n";
    }

    /** RFC 9110 8.6: no Content-Length on 1xx and 204. */
    private static boolean forbidsContentLength(int status) {
        return status < 200 || status == 204;
    }

    /** 1xx, 204 and 304 responses never carry a body (RFC 9110). */
    private static boolean hasNoBody(int status) {
        return status < 200 || status == 204 || status == 304;
    }
}
