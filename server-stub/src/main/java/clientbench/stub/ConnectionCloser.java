package clientbench.stub;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.ScheduledFuture;

import java.util.concurrent.TimeUnit;

/**
 * Closes connections as servers that bite clients in production do, when the requests' queries ask it
 * ({@link StubParams}). One per HTTP/1.1 connection, on its event loop: closing it once idle (FIN, RST, or as the next
 * request's head arrives) and ending every Nth answer with {@code Connection: close}; a FIN shuts the output only, so a
 * request sent after it is seen. On HTTP/2, {@link #goAway}: a GOAWAY every Nth stream.
 */
final class ConnectionCloser {

    /** After a GOAWAY the connection closes once its streams are done, checked this often, at most this many times. */
    private static final long DRAIN_CHECK_MS = 10;
    private static final int DRAIN_CHECKS = 500;
    private static final AttributeKey<long[]> STREAMS = AttributeKey.valueOf("clientbench.stub.streams");

    private final Channel connection;
    private final StubTally tally;
    private long answers;
    private StubParams.IdleClose idleClose = StubParams.IdleClose.NONE;
    private long idleMs;
    private long idleSinceNanos;
    private ScheduledFuture<?> idleTimer;
    /** The last answer's write: an idle FIN waits for its bytes to leave. */
    private ChannelFuture lastAnswer;
    /** Request heads arrived on this connection: a FIN waiting for an answer's bytes is dropped when one came since. */
    private long arrivals;
    /** The stub sent its FIN here (output shut, input still read). */
    private boolean finSent;

    ConnectionCloser(Channel connection, StubTally tally) {
        this.connection = connection;
        this.tally = tally;
    }

    /**
     * A request's head arrived carrying {@code key} on a connection the stub had already sent its FIN on: it was sent on
     * a closed connection. Counted, and refused unread by a reset, as the kernel of a closed socket refuses it. False
     * while no FIN went out here.
     */
    boolean closedBeforeArrival(String key) {
        if (!finSent) {
            return false;
        }
        tally.afterFinArrivals.increment();
        tally.afterFin.count(key);
        connection.config().setOption(ChannelOption.SO_LINGER, 0);
        connection.close();
        return true;
    }

    /**
     * A request's head arrived carrying {@code key}, {@code held} others unanswered before it. False when the connection,
     * idle in race mode since the last answer's {@code idleMs}, is closed instead: the request is read and never answered.
     */
    boolean arrived(int held, String key) {
        arrivals++;
        if (idleTimer != null) {
            if (idleTimer.cancel(false)) {
                tally.idleClosesPending.decrementAndGet();
            }
            idleTimer = null;
        }
        if (idleClose == StubParams.IdleClose.RACE && held == 0
                && System.nanoTime() - idleSinceNanos >= TimeUnit.MILLISECONDS.toNanos(idleMs)) {
            tally.raceCloses.increment();
            tally.raceClosed.count(key);
            connection.close();
            return false;
        }
        return true;
    }

    /** Whether the answer to this request, in request order, is the connection's last: every {@code closeEvery}-th. */
    boolean lastAnswer(StubParams params) {
        answers++;
        boolean last = params.closeEvery() > 0 && answers % params.closeEvery() == 0;
        if (last) {
            tally.closeEveryCloses.increment();
        }
        return last;
    }

    /**
     * An answer was written on a kept-alive connection ({@code written}: its bytes leaving), {@code held} requests still
     * unanswered: the idle habit starts at none.
     */
    void answered(StubParams params, int held, ChannelFuture written) {
        lastAnswer = written;
        idleClose = params.idleClose();
        idleMs = params.idleMs();
        if (held > 0) {
            return;
        }
        idleSinceNanos = System.nanoTime();
        if (idleClose == StubParams.IdleClose.FIN || idleClose == StubParams.IdleClose.RST) {
            tally.idleClosesPending.incrementAndGet();
            idleTimer = connection.eventLoop().schedule(this::closeIdle, idleMs, TimeUnit.MILLISECONDS);
        }
    }

    /** Closes the idle connection as its habit asks; every way out ends the pending count it was armed with. */
    private void closeIdle() {
        idleTimer = null;
        if (!connection.isActive()) {
            tally.idleClosesPending.decrementAndGet();
            return;
        }
        connection.flush(); // at idleMs 0 the answer may still wait for its flush: a close would drop it
        if (idleClose == StubParams.IdleClose.RST) {
            tally.idleCloses.increment();
            connection.config().setOption(ChannelOption.SO_LINGER, 0);
            connection.close();
            tally.idleClosesPending.decrementAndGet();
            return;
        }
        // The FIN once the answer's bytes are out (a shutdown fails what is still queued), unless a request came first;
        // the stub reads on, so a request sent after the FIN reached the client is seen (closedBeforeArrival).
        long at = arrivals;
        lastAnswer.addListener(written -> {
            if (arrivals != at || !connection.isActive() || finSent) {
                tally.idleClosesPending.decrementAndGet();
                return;
            }
            finSent = true;
            ((DuplexChannel) connection).shutdownOutput().addListener(shut -> {
                if (shut.isSuccess()) {
                    tally.idleCloses.increment();
                }
                tally.idleClosesPending.decrementAndGet();
            });
        });
    }

    /**
     * HTTP/2: counts the stream on its connection; at every {@code goAwayEvery}-th, a GOAWAY whose last stream is the
     * one before it, so this stream (and any later one) is refused, unprocessed: a client may send it again, safely.
     * The connection closes once its remaining streams are done. True when the stream was refused.
     */
    static boolean goAway(Http2StreamChannel stream, StubParams params, StubTally tally) {
        if (params.goAwayEvery() == 0) {
            return false;
        }
        Channel connection = stream.parent();
        long[] count = connection.attr(STREAMS).setIfAbsent(new long[1]);
        count = count == null ? connection.attr(STREAMS).get() : count;
        if (++count[0] % params.goAwayEvery() != 0) {
            return false;
        }
        ChannelHandlerContext codecCtx = connection.pipeline().context(Http2FrameCodec.class);
        if (codecCtx == null) {
            return false;
        }
        Http2FrameCodec codec = (Http2FrameCodec) codecCtx.handler();
        int last = Math.max(0, stream.stream().id() - 2);
        tally.goAways.increment();
        tally.refusedStreams.increment();
        codec.goAway(codecCtx, last, Http2Error.NO_ERROR.code(), Unpooled.EMPTY_BUFFER, codecCtx.newPromise());
        codecCtx.flush();
        closeWhenDrained(connection, codec, DRAIN_CHECKS);
        return true;
    }

    private static void closeWhenDrained(Channel connection, Http2FrameCodec codec, int checksLeft) {
        if (!connection.isActive()) {
            return;
        }
        if (codec.connection().numActiveStreams() == 0 || checksLeft == 0) {
            connection.close();
            return;
        }
        connection.eventLoop().schedule(() -> closeWhenDrained(connection, codec, checksLeft - 1),
                DRAIN_CHECK_MS, TimeUnit.MILLISECONDS);
    }
}
