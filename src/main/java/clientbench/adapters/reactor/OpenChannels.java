package clientbench.adapters.reactor;

import io.netty.channel.Channel;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import reactor.netty.ChannelPipelineConfigurer;
import reactor.netty.ConnectionObserver;

/**
 * Every connection (never an HTTP/2 stream) the adapter's client opened and not yet closed, so that close() ends
 * them all while the event loops still run. Neither library does it: the pool's disposal closes idle connections
 * only, not those in use or still connecting (reactor-pool's {@code SimpleDequePool.disposeLater}); and an event
 * loop shut down with no quiet period that is running tasks at that moment ends without closing its channels
 * (Netty 4.2's {@code SingleThreadEventExecutor.confirmShutdown} returns true at once, so
 * {@code SingleThreadIoEventLoop.run} never calls {@code prepareToDestroy} again). A connect the pool started
 * before its disposal registers its channel later: that one closes itself as it registers.
 */
final class OpenChannels implements ChannelPipelineConfigurer {

    private final Set<Channel> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closing;

    /** On the channel's event loop, as it registers (before it connects). */
    @Override
    public void onChannelInit(ConnectionObserver observer, Channel channel, SocketAddress remote) {
        if (channel.parent() == null && open.add(channel)) {
            channel.closeFuture().addListener(f -> open.remove(channel));
            if (closing) { // closeAll() may have gone by it
                channel.close();
            }
        }
    }

    /** Closes every connection, waiting at most {@code max} for each; one that registers after this closes at once. */
    void closeAll(Duration max) {
        closing = true;
        for (Channel channel : open) {
            channel.close().awaitUninterruptibly(max.toMillis());
        }
    }
}
