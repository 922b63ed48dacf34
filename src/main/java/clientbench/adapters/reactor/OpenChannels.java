package clientbench.adapters.reactor;

import io.netty.channel.Channel;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import reactor.netty.ChannelPipelineConfigurer;
import reactor.netty.ConnectionObserver;

/**
 * Every connection (never an HTTP/2 stream) the client opened and not yet closed, so close() ends them while the loops
 * still run: the pool's disposal closes idle ones only, and a busy event loop shut down without a quiet period ends
 * without closing its channels. A connect registered after the disposal closes itself.
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
