package clientbench.stub;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.ScheduledFuture;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * A TCP front that holds up TLS handshakes: {@link #stall()} reads each client's first flight (its ClientHello) and
 * never answers; {@link #trickle} relays it to a TLS stub and the stub's answer back a byte every {@code trickleMs}, so
 * that every read comes well within a per-read timeout while the handshake takes minutes. Counts what it saw.
 */
public final class HandshakeStall implements AutoCloseable {

    /** What it saw since start: connections accepted, those whose client spoke (a ClientHello began), bytes sent. */
    public record Counts(long connections, long helloes, long bytesTrickled) {
    }

    private final InetSocketAddress backend;
    private final long trickleMs;
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel server;
    /** Every connection, both sides: closed on close(), so that no client is left waiting on a handshake. */
    private final ChannelGroup open = new DefaultChannelGroup("handshake-stall", GlobalEventExecutor.INSTANCE);
    private final LongAdder connections = new LongAdder();
    private final LongAdder helloes = new LongAdder();
    private final LongAdder trickled = new LongAdder();

    private HandshakeStall(InetSocketAddress backend, long trickleMs) {
        this.backend = backend;
        this.trickleMs = trickleMs;
        try {
            this.server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            open.add(ch);
                            ch.pipeline().addLast("front", new Front());
                        }
                    })
                    .bind("127.0.0.1", 0).syncUninterruptibly().channel();
        } catch (RuntimeException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            throw e;
        }
    }

    /** Accepts, reads, never answers. */
    public static HandshakeStall stall() {
        return new HandshakeStall(null, 0);
    }

    /** Relays to the TLS server at {@code tls}, its answer back one byte every {@code trickleMs}. */
    public static HandshakeStall trickle(URI tls, long trickleMs) {
        if (!"https".equals(tls.getScheme()) || trickleMs <= 0) {
            throw new IllegalArgumentException("trickle needs an https:// server and trickleMs > 0: " + tls + ", "
                    + trickleMs);
        }
        return new HandshakeStall(new InetSocketAddress(tls.getHost(), tls.getPort()), trickleMs);
    }

    /** Where clients connect, as an https URL. */
    public URI uri() {
        return URI.create("https://127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort());
    }

    public Counts counts() {
        return new Counts(connections.sum(), helloes.sum(), trickled.sum());
    }

    /** Closes the listener and every connection, so that a client still waiting on a handshake sees it end. */
    @Override
    public void close() {
        server.close().syncUninterruptibly();
        open.close().awaitUninterruptibly(1, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** One client's connection: its bytes dropped (stall) or relayed; the server's answer paced back (trickle). */
    private final class Front extends ChannelInboundHandlerAdapter {
        private ChannelFuture toServer;
        private CompositeByteBuf pending;
        private ScheduledFuture<?> pacer;
        private boolean spoke;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            connections.increment();
            if (backend == null) {
                return;
            }
            Channel client = ctx.channel();
            pending = client.alloc().compositeBuffer();
            toServer = new Bootstrap().group(client.eventLoop()).channel(NioSocketChannel.class)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .handler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelActive(ChannelHandlerContext b) {
                            open.add(b.channel());
                        }

                        @Override
                        public void channelRead(ChannelHandlerContext b, Object msg) {
                            if (client.isActive()) {
                                pending.addComponent(true, (ByteBuf) msg);
                            } else {
                                ReferenceCountUtil.release(msg); // the client's side is gone, and pending with it
                            }
                        }

                        @Override
                        public void channelInactive(ChannelHandlerContext b) {
                            client.close();
                        }

                        @Override
                        public void exceptionCaught(ChannelHandlerContext b, Throwable cause) {
                            b.close();
                        }
                    })
                    .connect(backend);
            toServer.addListener(f -> {
                if (!f.isSuccess()) {
                    client.close();
                }
            });
            pacer = client.eventLoop().scheduleAtFixedRate(() -> {
                if (pending.isReadable()) {
                    // A copy: a slice of pending would shift under it when its read components are discarded.
                    client.writeAndFlush(client.alloc().buffer(1).writeByte(pending.readByte()));
                    pending.discardReadComponents();
                    trickled.increment();
                }
            }, 0, trickleMs, TimeUnit.MILLISECONDS);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!spoke) {
                spoke = true;
                helloes.increment();
            }
            if (toServer == null) {
                ReferenceCountUtil.release(msg);
                return;
            }
            // Same event loop: the listeners run in order, after the connect, so the bytes arrive as sent.
            toServer.addListener(f -> {
                if (f.isSuccess()) {
                    toServer.channel().writeAndFlush(msg);
                } else {
                    ReferenceCountUtil.release(msg);
                }
            });
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (toServer != null) {
                pacer.cancel(false);
                toServer.channel().close();
                pending.release();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
