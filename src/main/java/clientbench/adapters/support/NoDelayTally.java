package clientbench.adapters.support;

import java.net.Socket;
import java.net.SocketException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * TCP_NODELAY as read back from each socket a client connected, for its {@code tcpNoDelay} setting: for a client owning
 * plain sockets (Helidon, OkHttp) only the socket says. Nagle's algorithm, left on, held Helidon's HTTP/2 frames for
 * the server's delayed ACK.
 */
public final class NoDelayTally {

    private final LongAdder on = new LongAdder();
    private final LongAdder off = new LongAdder();
    private final LongAdder unread = new LongAdder();
    private final String when;

    /** @param when when the sockets are read, for the record, e.g. "as it connected" */
    public NoDelayTally(String when) {
        this.when = when;
    }

    /** Reads the socket's TCP_NODELAY; once per connection, never per request. */
    public void read(Socket socket) {
        try {
            (socket.getTcpNoDelay() ? on : off).increment();
        } catch (SocketException e) { // closed already
            unread.increment();
        }
    }

    /**
     * Counts a value read from a channel's config (null: the channel did not say). Netty's epoll config throws on a
     * channel closed before it was read (a connection the server reset at once): that one counts as unreadable,
     * never as an exception in the client's connect path.
     */
    public void count(Supplier<Boolean> read) {
        Boolean value;
        try {
            value = read.get();
        } catch (RuntimeException e) {
            value = null;
        }
        (value == null ? unread : value ? on : off).increment();
    }

    /** What the sockets read so far ran with, e.g. "on (read from each of the 64 sockets as it connected)". */
    public String describe() {
        long yes = on.sum();
        long no = off.sum();
        long unknown = unread.sum();
        long all = yes + no + unknown;
        if (all == 0) {
            return "not read yet (no socket connected)";
        }
        String sockets = all == 1 ? "the one socket " : "each of the " + all + " sockets ";
        if (no == 0 && unknown == 0) {
            return "on (read from " + sockets + when + ")";
        }
        if (yes == 0 && unknown == 0) {
            return "off: Nagle's algorithm on (read from " + sockets + when + ")";
        }
        return "on for " + yes + ", off for " + no + ", unreadable (closed) for " + unknown + " of " + all
                + " sockets (read " + when + ")";
    }

    /** The settings with {@link #describe()} as {@code tcpNoDelay}: a copy, unmodifiable, in their order. */
    public Map<String, String> addTo(Map<String, String> settings) {
        Map<String, String> s = new LinkedHashMap<>(settings);
        s.put("tcpNoDelay", describe());
        return Collections.unmodifiableMap(s);
    }
}
