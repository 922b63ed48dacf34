package clientbench.adapters;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.util.AttributeKey;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A plain h2c server, not the stub: Netty's frame codec answering every request with 200 "ok", and at the Nth stream
 * of a connection closing it the way Netty closes one, gracefully: a GOAWAY naming the last stream it received (that
 * one included, answered), the connection closed once those are answered.
 */
final class GracefulGoAwayServer implements AutoCloseable {

    private static final AttributeKey<AtomicInteger> STREAMS = AttributeKey.valueOf("graceful.streams");

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel listener;
    final AtomicInteger closes = new AtomicInteger();

    GracefulGoAwayServer(int goAwayEvery) throws InterruptedException {
        listener = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.attr(STREAMS).set(new AtomicInteger());
                        ch.pipeline().addLast(Http2FrameCodecBuilder.forServer()
                                .initialSettings(Http2Settings.defaultSettings().maxConcurrentStreams(100))
                                .gracefulShutdownTimeoutMillis(10_000).build());
                        ch.pipeline().addLast(new Http2MultiplexHandler(new Answer(goAwayEvery)));
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + ((InetSocketAddress) listener.localAddress()).getPort());
    }

    @Override
    public void close() {
        listener.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
    }

    private final class Answer extends SimpleChannelInboundHandler<Http2HeadersFrame> {
        private final int goAwayEvery;

        Answer(int goAwayEvery) {
            this.goAwayEvery = goAwayEvery;
        }

        @Override
        public boolean isSharable() {
            return true;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Http2HeadersFrame frame) {
            if (!frame.isEndStream()) {
                return; // a GET: its head ends the stream
            }
            ctx.write(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().status("200")));
            ctx.writeAndFlush(new DefaultHttp2DataFrame(Unpooled.copiedBuffer("ok", StandardCharsets.US_ASCII), true));
            Channel connection = ((Http2StreamChannel) ctx.channel()).parent();
            if (connection.attr(STREAMS).get().incrementAndGet() == goAwayEvery) {
                closes.incrementAndGet();
                connection.close(); // the codec's graceful close: GOAWAY(last stream received), then wait for them
            }
        }
    }
}
