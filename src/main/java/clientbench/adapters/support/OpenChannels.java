package clientbench.adapters.support;

import io.netty.channel.Channel;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every connection (never an HTTP/2 stream) a Netty-based client opened and not yet closed, so close() ends them while
 * the loops still run: a pool closes the connections it holds, not those in use or connecting, and a busy event loop
 * shut down without a quiet period ends without closing its channels. One registered after closeAll() closes itself.
 */
public final class OpenChannels {

    private final Set<Channel> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closing;

    /** On the channel's event loop, as it registers (before it connects): the client's channel-init hook. */
    public void registered(Channel channel) {
        if (channel.parent() == null && open.add(channel)) {
            channel.closeFuture().addListener(f -> open.remove(channel));
            if (closing) { // closeAll() may have gone by it
                channel.close();
            }
        }
    }

    /** Closes every connection, waiting at most {@code max} for each; one that registers after this closes at once. */
    public void closeAll(Duration max) {
        closing = true;
        for (Channel channel : open) {
            channel.close().awaitUninterruptibly(max.toMillis());
        }
    }
}
