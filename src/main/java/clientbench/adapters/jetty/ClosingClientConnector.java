package clientbench.adapters.jetty;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.IO;

/**
 * Jetty's {@code ClientConnector}, which also closes, as it stops, every channel it opened that is still open: Jetty
 * leaves open a channel handed to a selector that has already stopped (a request queued while {@code HttpClient.stop()}
 * runs). A channel opened after this stopped is closed at once, and its connect fails.
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
