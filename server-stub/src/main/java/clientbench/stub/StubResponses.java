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
        int bodyLength = hasNoBody(status) ? 0 : bytes;
        if (requestBytes < 0 && bodyLength <= INLINE_BODY_MAX) {
            long key = ((long) status << 40) | ((long) bodyLength << 2) | (keepAlive ? 2 : 0) | (head ? 1 : 0);
            ByteBuf ready = http1Cache.get(key);
            if (ready == null) {
                if (http1Cache.size() >= CACHE_MAX) {
                    return compose(status, bodyLength, keepAlive, head, -1);
                }
                ByteBuf composed = compose(status, bodyLength, keepAlive, head, -1);
                ByteBuf shared = own(SHARED.directBuffer(composed.readableBytes()).writeBytes(composed));
                composed.release();
                ByteBuf raced = http1Cache.putIfAbsent(key, shared);
                ready = raced != null ? raced : shared;
            }
            return ready.duplicate();
        }
        return compose(status, bodyLength, keepAlive, head, requestBytes);
    }

    /**
     * A response whose body goes out in chunks of {@link StubParams#CHUNK_BYTES} ({@code Transfer-Encoding:
     * chunked}); built per request, as chunked answers are for tests and are not measured.
     */
    ByteBuf http1Chunked(int status, int bytes, boolean keepAlive, boolean head, long requestBytes) {
        int bodyLength = hasNoBody(status) ? 0 : bytes;
        String headers = statusLine(status)
                + "content-type: " + CONTENT_TYPE + "\r\n"
                + "transfer-encoding: chunked\r\n"
                + (keepAlive ? "" : "connection: close\r\n")
                + (requestBytes >= 0 ? REQUEST_BYTES_HEADER + ": " + requestBytes + "\r\n" : "")
                + "\r\n";
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

    private ByteBuf compose(int status, int bodyLength, boolean keepAlive, boolean head, long requestBytes) {
        String headers = statusLine(status)
                + "content-type: " + CONTENT_TYPE + "\r\n"
                + (forbidsContentLength(status) ? "" : "content-length: " + bodyLength + "\r\n")
                + (keepAlive ? "" : "connection: close\r\n")
                + (requestBytes >= 0 ? REQUEST_BYTES_HEADER + ": " + requestBytes + "\r\n" : "")
                + "\r\n";
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
