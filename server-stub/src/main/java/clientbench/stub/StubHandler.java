package clientbench.stub;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.DecoderResultProvider;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.util.ReferenceCountUtil;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * Answers requests as their query string asks ({@link StubParams}); one per HTTP/1.1 connection or HTTP/2 stream.
 * HTTP/1.1 answers are precomputed bytes written to {@code rawOut}, below the codec, so the hot path encodes nothing;
 * pipelined answers leave in order via {@link #queue} even when one is delayed, flushed once per read batch.
 */
final class StubHandler extends ChannelInboundHandlerAdapter {

    private static final ByteBuf CONTINUE = Unpooled.unreleasableBuffer(Unpooled.directBuffer()
            .writeBytes("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII)).asReadOnly());

    private final StubStats stats;
    private final StubResponses responses;
    private final StubTally tally;
    private final HeldAnswers heldAnswers;
    /** Where HTTP/1.1 bytes go; null on an HTTP/2 stream, which answers with response objects. */
    private final ChannelHandlerContext rawOut;
    private final ArrayDeque<PendingAnswer> queue = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private boolean upgradable;
    /** Closes the connection as its habits ask, on HTTP/1.1 (null on an HTTP/2 stream). */
    private ConnectionCloser closer;
    /** Requests read and not yet answered; the tally's in-flight count follows it. */
    private int held;
    /** The rest of a request that was refused as its head arrived (closed under it, or refused by a GOAWAY). */
    private boolean ignoring;
    /** A paced body is read {@value #PAUSED_BYTES} bytes per {@code readPauseMs} (HTTP/2): its window reopens late. */
    private boolean pausing;
    private long readSincePause;
    /** How much of a paced body is read between two pauses: one DATA frame of the default size. */
    static final int PAUSED_BYTES = 16 * 1024;

    // The request being read.
    private StubParams params;
    private String invalid;
    private boolean keepAlive;
    private boolean head;
    private boolean hasBody;
    private long requestBytes;

    StubHandler(StubStats stats, StubResponses responses, StubTally tally, HeldAnswers heldAnswers,
                ChannelHandlerContext rawOut, boolean upgradable) {
        this.stats = stats;
        this.responses = responses;
        this.tally = tally;
        this.heldAnswers = heldAnswers;
        this.rawOut = rawOut;
        this.upgradable = upgradable;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.closer = rawOut == null ? null : new ConnectionCloser(ctx.channel(), tally);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        tally.released(held); // held with their connection (or stream), never answered
        held = 0;
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof DecoderResultProvider p && p.decoderResult().isFailure()) {
                malformed(p.decoderResult());
                return;
            }
            if (msg instanceof HttpRequest request) {
                begin(request);
            }
            if (msg instanceof HttpContent content) {
                if (ignoring) {
                    ignoring = !(content instanceof LastHttpContent);
                    return;
                }
                requestBytes += content.content().readableBytes();
                if (content instanceof LastHttpContent) {
                    end();
                } else if (pausing) {
                    readSincePause += content.content().readableBytes();
                    if (readSincePause >= PAUSED_BYTES) {
                        readSincePause = 0;
                        readAfterPause();
                    } else {
                        ctx.read();
                    }
                }
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A client that vanishes mid-response costs only its own connection.
        tally.protocolError(cause);
        if (!(cause instanceof IOException)) {
            System.err.println("stub: closing " + ctx.channel() + ": " + cause);
        }
        ctx.close();
    }

    private void begin(HttpRequest request) {
        if (upgradable) {
            // Clients ask for h2c on their first request; after it the upgrade handler only costs time.
            upgradable = false;
            if (ctx.pipeline().get(StubInitializer.UPGRADE) != null) {
                ctx.pipeline().remove(StubInitializer.UPGRADE);
            }
        }
        requestBytes = 0;
        keepAlive = HttpUtil.isKeepAlive(request);
        head = HttpMethod.HEAD.equals(request.method());
        HttpMethod m = request.method();
        hasBody = HttpUtil.getContentLength(request, 0L) > 0 || HttpUtil.isTransferEncodingChunked(request)
                || HttpMethod.POST.equals(m) || HttpMethod.PUT.equals(m) || HttpMethod.PATCH.equals(m);
        try {
            params = StubParams.parse(request.uri());
            invalid = null;
            keepAlive &= params.keepAlive();
        } catch (IllegalArgumentException e) {
            params = StubParams.DEFAULT;
            invalid = e.getMessage();
        }
        if (refusedOnArrival(request)) {
            ignoring = true;
            return;
        }
        held++;
        tally.held();
        if (rawOut != null && HttpUtil.is100ContinueExpected(request) && invalid == null) {
            rawOut.write(CONTINUE.duplicate());
        }
        if (rawOut == null && hasBody && invalid == null && params.readPauseMs() > 0) {
            pausing = true;
            readSincePause = 0;
            ctx.channel().config().setAutoRead(false); // frames wait in the stream, unconsumed: no WINDOW_UPDATE
            readAfterPause();
        }
    }

    /** Reads on in a paced body after its pause; consuming what it reads lets the codec reopen the window. */
    private void readAfterPause() {
        tally.readPauses.increment();
        ctx.executor().schedule(() -> {
            if (ctx.channel().isActive()) {
                ctx.read();
            }
        }, params.readPauseMs(), TimeUnit.MILLISECONDS);
    }

    /**
     * Whether the connection's habits refuse this request as its head arrives: an HTTP/2 stream past a GOAWAY (not
     * processed, so not counted as seen), an HTTP/1.1 connection the stub had sent its FIN on (not processed, counted
     * apart), or an idle HTTP/1.1 connection in race mode, closed under it (seen).
     */
    private boolean refusedOnArrival(HttpRequest request) {
        if (rawOut == null && invalid == null && ctx.channel() instanceof Http2StreamChannel stream
                && ConnectionCloser.goAway(stream, params, tally)) {
            return true;
        }
        String key = request.headers().get(StubTally.KEY_HEADER);
        if (closer != null && closer.closedBeforeArrival(key)) {
            return true; // sent after the stub's FIN: refused unread, as a closed socket refuses it
        }
        tally.read.count(key);
        return closer != null && !closer.arrived(held, key);
    }

    private void end() {
        if (pausing) {
            pausing = false;
            tally.pausedBodies.increment();
            tally.pausedBodyBytes.add(requestBytes);
            ctx.channel().config().setAutoRead(true);
        }
        stats.answered(rawOut == null ? ctx.channel().parent() : ctx.channel(), rawOut == null);
        long echo = hasBody ? requestBytes : -1;
        if (invalid != null) {
            stats.badRequests.increment();
        } else if (closer != null && closer.lastAnswer(params)) {
            keepAlive = false;
        }
        boolean hold = invalid == null && params.hold();
        if ((invalid != null || params.delayMs() == 0 && !hold) && queue.isEmpty()) {
            send(params, invalid, keepAlive, head, echo); // the hot path: nothing to wait for, nothing allocated
            return;
        }
        PendingAnswer answer = new PendingAnswer(params, invalid, keepAlive, head, echo);
        queue.add(answer);
        if (!hold || !heldAnswers.hold(() -> ctx.executor().execute(() -> {
            due(answer);
            ctx.flush();
        }))) {
            due(answer);
        }
    }

    /** The answer's delay starts: it is ready at once, or on the event loop's timer. */
    private void due(PendingAnswer answer) {
        if (answer.delayMs() == 0) {
            answer.ready = true;
            drain(); // goes out only when the answers before it went
        } else {
            ctx.executor().schedule(() -> {
                answer.ready = true;
                drain();
                ctx.flush();
            }, answer.delayMs(), TimeUnit.MILLISECONDS);
        }
    }

    private void drain() {
        while (!queue.isEmpty() && queue.peek().ready) {
            PendingAnswer a = queue.poll();
            send(a.params, a.invalid, a.keepAlive, a.head, a.requestBytes);
        }
    }

    private void malformed(DecoderResult result) {
        stats.badRequests.increment();
        String reason = "malformed request: " + result.cause().getMessage();
        queue.clear();
        if (rawOut != null) {
            rawOut.writeAndFlush(responses.http1Text(400, reason, false)).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.writeAndFlush(responses.http2Text(400, reason)).addListener(ChannelFutureListener.CLOSE);
        }
    }

    private void send(StubParams params, String invalid, boolean keepAlive, boolean head, long requestBytes) {
        Channel ch = ctx.channel();
        if (!ch.isActive()) {
            queue.clear();
            return;
        }
        if (invalid == null && params.fault() != StubParams.Fault.NONE) {
            fault(ch, params);
            return;
        }
        release();
        if (invalid == null && params.headerBytes() > 0) {
            tally.largeHeads.increment();
        }
        if (rawOut == null) {
            ChannelFuture written = ctx.write(invalid != null ? responses.http2Text(400, invalid)
                    : responses.http2(params.status(), params.bytes(), requestBytes, params.chunked(), params.headerBytes()));
            if (params.bytes() > Http2CodecUtil.DEFAULT_WINDOW_SIZE) { // only a body past a window can wait for it
                tally.answersUnsent.incrementAndGet(); // until its last DATA frame is out
                written.addListener(f -> tally.answersUnsent.decrementAndGet());
            }
            return;
        }
        ByteBuf bytes = invalid != null ? responses.http1Text(400, invalid, keepAlive)
                : params.chunked() ? responses.http1Chunked(params.status(), params.bytes(), keepAlive, head, requestBytes,
                params.headerBytes())
                : responses.http1(params.status(), params.bytes(), keepAlive, head, requestBytes, params.headerBytes());
        if (keepAlive) {
            closer.answered(params, held, rawOut.write(bytes));
        } else {
            queue.clear();
            rawOut.writeAndFlush(bytes).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** One held request is done with: answered, or given up with its connection. */
    private void release() {
        if (held > 0) {
            held--;
            tally.released(1);
        }
    }

    /**
     * reset: abortive close, so the client reads a TCP RST (HTTP/2: RST_STREAM only). close: orderly, no answer
     * (HTTP/2: the whole connection, as a dying server). truncate and stall: the head announces the length and half the
     * body follows; truncate then closes (HTTP/2: RST_STREAM), stall sends nothing more and leaves the connection open.
     * never: no answer, the connection left open. trickle: the head, then the body a byte every trickleMs.
     */
    private void fault(Channel ch, StubParams params) {
        StubParams.Fault fault = params.fault();
        stats.faults.increment();
        queue.clear();
        Channel connection = rawOut == null ? ch.parent() : ch;
        if (fault == StubParams.Fault.NEVER) {
            return; // held until the client gives up and closes
        }
        if (fault == StubParams.Fault.TRICKLE) {
            int bytes = Math.max(1, params.bytes());
            if (rawOut == null) {
                ctx.writeAndFlush(responses.http2TruncatedHead(bytes));
            } else {
                rawOut.writeAndFlush(responses.http1Head(200, bytes));
            }
            ctx.executor().schedule(() -> trickle(ch, bytes, 0, params.trickleMs()), params.trickleMs(),
                    TimeUnit.MILLISECONDS);
            return;
        }
        if (fault == StubParams.Fault.TRUNCATE || fault == StubParams.Fault.STALL) {
            int bytes = Math.max(2, params.bytes());
            boolean close = fault == StubParams.Fault.TRUNCATE;
            if (rawOut == null) {
                ctx.write(responses.http2TruncatedHead(bytes));
                ChannelFuture sent = ctx.writeAndFlush(new io.netty.handler.codec.http.DefaultHttpContent(responses.body(bytes / 2)));
                if (close) {
                    sent.addListener(ChannelFutureListener.CLOSE);
                }
            } else {
                ChannelFuture sent = rawOut.writeAndFlush(responses.http1Truncated(bytes));
                if (close) {
                    sent.addListener(ChannelFutureListener.CLOSE);
                }
            }
            return;
        }
        if (fault == StubParams.Fault.RESET) {
            if (rawOut == null) {
                ch.close();
            } else {
                connection.config().setOption(ChannelOption.SO_LINGER, 0);
                connection.close();
            }
        } else {
            connection.close();
        }
    }

    /** Sends byte {@code sent} of a trickled body, then schedules the next; the last one ends the answer. */
    private void trickle(Channel ch, int total, int sent, long intervalMs) {
        if (!ch.isActive()) {
            return;
        }
        ByteBuf one = responses.body(total).slice(sent, 1);
        boolean last = sent + 1 == total;
        if (rawOut != null) {
            rawOut.writeAndFlush(one);
        } else {
            ctx.writeAndFlush(last ? new io.netty.handler.codec.http.DefaultLastHttpContent(one)
                    : new io.netty.handler.codec.http.DefaultHttpContent(one));
        }
        if (last) {
            release();
        } else {
            ctx.executor().schedule(() -> trickle(ch, total, sent + 1, intervalMs), intervalMs, TimeUnit.MILLISECONDS);
        }
    }
}
