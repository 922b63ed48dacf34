package clientbench.adapters.okhttp;

import clientbench.adapters.support.NoDelayTally;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.SocketFactory;

/**
 * OkHttp's default socket factory plus the sockets it made that are not closed, so {@link #closeAll()} ends every
 * connection, pooled or not: {@code evictAll()} misses one a call opens while close() runs, left open for the pool's
 * keep-alive. After closeAll() a new socket is closed at once. The cost is per connection, never per request.
 */
final class OpenSockets extends SocketFactory {

    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /**
     * OkHttp's only call: it connects the socket itself, with its connect timeout. TCP_NODELAY is set here, as
     * every other client sets it: OkHttp leaves Nagle's algorithm on and has no setting of its own for it (its
     * socket factory is the place), so a small write waits while an earlier one is unacknowledged.
     */
    @Override
    public Socket createSocket() throws IOException {
        Socket socket = new Socket() {
            @Override
            public void close() throws IOException {
                open.remove(this);
                super.close();
            }
        };
        socket.setTcpNoDelay(true);
        open.add(socket);
        if (closed) { // closeAll() may have passed this socket by: it must not outlive the client
            socket.close();
            throw new SocketException("the client is closed");
        }
        return socket;
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return connected(new InetSocketAddress(host, port), new InetSocketAddress(localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
        return connected(new InetSocketAddress(address, port), new InetSocketAddress(localAddress, localPort));
    }

    private Socket connected(InetSocketAddress remote, InetSocketAddress... local) throws IOException {
        Socket socket = createSocket();
        try {
            if (local.length > 0) {
                socket.bind(local[0]);
            }
            socket.connect(remote);
            return socket;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** Closes every socket still open; later ones are closed as they are made. Idempotent. */
    void closeAll() {
        closed = true;
        for (Socket socket : open) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing for good: nothing else to do with it
            }
        }
    }

    /** TCP_NODELAY as read now from every socket still open, connected or not. */
    NoDelayTally noDelay() {
        NoDelayTally tally = new NoDelayTally("open when the settings were read");
        open.forEach(tally::read);
        return tally;
    }

    /** Sockets made and not closed yet, for tests. */
    int openCount() {
        return open.size();
    }
}
