package clientbench.stub;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2FrameLogger;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2ServerUpgradeCodec;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.handler.logging.LogLevel;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ApplicationProtocolNegotiationHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.util.AsciiString;

import java.util.List;

/**
 * The stub's pipelines. Cleartext: a sniffer picks HTTP/2 on the client's preface (prior knowledge), else HTTP/1.1,
 * where an {@code Upgrade: h2c} first request can still switch; TLS picks by ALPN. HTTP/1.1: [tls] raw, decoder,
 * encoder, [upgrade], stub (writing precomputed bytes to raw); HTTP/2: [tls] frame codec, multiplex, per stream stub.
 */
final class StubInitializer extends ChannelInitializer<SocketChannel> {

    static final String UPGRADE = "upgrade";
    private static final int MAX_UPGRADE_REQUEST_BYTES = 64 * 1024;

    private final StubStats stats;
    private final StubResponses responses;
    private final StubTally tally;
    private final HeldAnswers heldAnswers;
    private final SslContext sslContext;
    private final ChannelGroup connections;
    private final long maxStreams;

    StubInitializer(StubStats stats, StubResponses responses, StubTally tally, HeldAnswers heldAnswers,
                    SslContext sslContext, ChannelGroup connections, long maxStreams) {
        this.heldAnswers = heldAnswers;
        this.maxStreams = maxStreams;
        this.stats = stats;
        this.responses = responses;
        this.tally = tally;
        this.sslContext = sslContext;
        this.connections = connections;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        connections.add(ch); // leaves the group by itself when it closes
        stats.opened(ch);
        ChannelPipeline p = ch.pipeline();
        if (sslContext != null) {
            p.addLast("tls", sslContext.newHandler(ch.alloc()));
            p.addLast("alpn", new Alpn());
        } else {
            p.addLast("sniff", new PrefaceSniffer());
        }
    }

    private void http1(ChannelPipeline p, boolean upgradable) {
        p.addLast("raw", new ChannelOutboundHandlerAdapter());
        ChannelHandlerContext raw = p.context("raw");
        p.addLast("decoder", new HttpRequestDecoder());
        p.addLast("encoder", new HttpResponseEncoder());
        if (upgradable) {
            p.addLast(UPGRADE, new HttpServerUpgradeHandler(
                    ctx -> {
                        ctx.pipeline().remove("decoder");
                        ctx.pipeline().remove("encoder");
                        ctx.pipeline().remove("stub");
                    },
                    protocol -> AsciiString.contentEquals(Http2CodecUtil.HTTP_UPGRADE_PROTOCOL_NAME, protocol)
                            ? new Http2ServerUpgradeCodec(frameCodec(), multiplex())
                            : null,
                    MAX_UPGRADE_REQUEST_BYTES));
        }
        p.addLast("stub", new StubHandler(stats, responses, tally, heldAnswers, raw, upgradable));
    }

    private void http2(ChannelPipeline p) {
        p.addLast("h2", frameCodec());
        p.addLast("multiplex", multiplex());
        p.addLast("h2-errors", new ConnectionErrors());
    }

    /** A client that resets or drops an HTTP/2 connection costs that connection, quietly, as on HTTP/1.1. */
    private final class ConnectionErrors extends io.netty.channel.ChannelInboundHandlerAdapter {
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            tally.protocolError(cause);
            if (!(cause instanceof java.io.IOException)) {
                System.err.println("stub: closing " + ctx.channel() + ": " + cause);
            }
            ctx.close();
        }
    }

    private Http2FrameCodec frameCodec() {
        return Http2FrameCodecBuilder.forServer()
                .initialSettings(io.netty.handler.codec.http2.Http2Settings.defaultSettings().maxConcurrentStreams(maxStreams))
                .frameLogger(new WindowUpdates(tally))
                .build();
    }

    /**
     * Counts the WINDOW_UPDATE frames read and written (connection and streams), through the codec's logging hook: the
     * codec applies flow control itself and passes no connection-level update on. Logs nothing.
     */
    private static final class WindowUpdates extends Http2FrameLogger {
        private final StubTally tally;

        WindowUpdates(StubTally tally) {
            super(LogLevel.TRACE, WindowUpdates.class);
            this.tally = tally;
        }

        @Override
        public boolean isEnabled() {
            return false;
        }

        @Override
        public void logWindowsUpdate(Direction direction, ChannelHandlerContext ctx, int streamId, int increment) {
            (direction == Direction.INBOUND ? tally.windowUpdatesIn : tally.windowUpdatesOut).increment();
        }
    }

    private Http2MultiplexHandler multiplex() {
        return new Http2MultiplexHandler(new ChannelInitializer<Http2StreamChannel>() {
            @Override
            protected void initChannel(Http2StreamChannel stream) {
                stats.streamOpened(stream.parent(), stream);
                stream.pipeline().addLast(new Http2StreamFrameToHttpObjectCodec(true));
                stream.pipeline().addLast(new StubHandler(stats, responses, tally, heldAnswers, null, false));
            }
        });
    }

    /** Reads just enough of a cleartext connection to tell the HTTP/2 preface from an HTTP/1.1 request. */
    private final class PrefaceSniffer extends ByteToMessageDecoder {
        private static final ByteBuf PREFACE = Http2CodecUtil.connectionPrefaceBuf();

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            int n = Math.min(in.readableBytes(), PREFACE.readableBytes());
            if (!ByteBufUtil.equals(in, in.readerIndex(), PREFACE, PREFACE.readerIndex(), n)) {
                http1(ctx.pipeline(), true);
                ctx.pipeline().remove(this);
            } else if (n == PREFACE.readableBytes()) {
                http2(ctx.pipeline());
                ctx.pipeline().remove(this);
            }
        }
    }

    private final class Alpn extends ApplicationProtocolNegotiationHandler {
        Alpn() {
            super(ApplicationProtocolNames.HTTP_1_1);
        }

        @Override
        protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
            if (ApplicationProtocolNames.HTTP_2.equals(protocol)) {
                http2(ctx.pipeline());
            } else {
                http1(ctx.pipeline(), false);
            }
        }
    }
}
