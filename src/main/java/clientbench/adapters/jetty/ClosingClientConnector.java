package clientbench.adapters.jetty;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.IO;

/**
 * Jetty's {@code ClientConnector}, which also closes, as it stops, every channel it opened that is still open.
 * Jetty leaves one open when it hands a new channel to a selector that has already stopped ({@code connect}
 * submits an {@code Accept}, or a {@code Connect} while the connect is pending): the selector's update loop ends
 * at its null selector ({@code ManagedSelector.SelectorProducer.processUpdates}), so the update never runs, and
 * nothing else closes the channel (a pending connect's timeout is a task on the client's scheduler, which stops
 * too). A request in Jetty's queue while {@code HttpClient.stop()} runs can open such a channel. A channel
 * opened once this has stopped is closed at once, and its connect fails.
 */
final class ClosingClientConnector extends ClientConnector {

    private final Set<SelectableChannel> opened = ConcurrentHashMap.newKeySet();
    private volatile boolean stopped;
    private volatile int forgetClosedAbove = 64;

    /** Each new channel, before it connects. */
    @Override
    protected void configure(SelectableChannel channel) throws IOException {
        super.configure(channel);
        opened.add(channel);
        if (stopped) { // doStop() may have gone by it
            channel.close();
            throw new ClosedChannelException();
        }
        if (opened.size() > forgetClosedAbove) { // the closed ones go, at an amortised O(1) per connection
            opened.removeIf(c -> !c.isOpen());
            forgetClosedAbove = Math.max(64, 2 * opened.size());
        }
    }

    @Override
    protected void doStop() throws Exception {
        try {
            super.doStop();
        } finally {
            stopped = true;
            opened.forEach(IO::close);
        }
    }
}
