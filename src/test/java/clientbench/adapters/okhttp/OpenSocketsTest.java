package clientbench.adapters.okhttp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import org.junit.jupiter.api.Test;

/**
 * close() of the OkHttp adapters ends connections the pool never held ({@link OpenSockets}): checked here at the
 * far end of a real loopback connection, which must read end-of-stream, not from the set's own bookkeeping.
 */
class OpenSocketsTest {

    @Test
    void closeAllEndsEveryOpenConnectionAndTheServerSeesItsEnd() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            OpenSockets sockets = new OpenSockets();
            Socket a = sockets.createSocket();
            a.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()), 5_000);
            Socket b = sockets.createSocket(InetAddress.getLoopbackAddress(), server.getLocalPort());
            try (Socket farA = server.accept(); Socket farB = server.accept()) {
                farA.setSoTimeout(5_000);
                farB.setSoTimeout(5_000);
                sockets.closeAll();
                assertTrue(a.isClosed() && b.isClosed());
                assertEquals(-1, farA.getInputStream().read(), "the server's end of the first connection");
                assertEquals(-1, farB.getInputStream().read(), "the server's end of the second connection");
            }
        }
    }

    @Test
    void aSocketClosedByItsOwnerLeavesTheSetAndOneMadeAfterCloseAllFails() throws Exception {
        OpenSockets sockets = new OpenSockets();
        Socket kept = sockets.createSocket();
        Socket closed = sockets.createSocket();
        closed.close();
        assertEquals(1, sockets.openCount());
        sockets.closeAll();
        assertTrue(kept.isClosed());
        assertEquals(0, sockets.openCount());
        assertThrows(SocketException.class, sockets::createSocket);
        assertEquals(0, sockets.openCount(), "the refused socket is not kept");
    }

    @Test
    void aFailedConnectLeavesNothingOpen() throws Exception {
        int port;
        try (ServerSocket gone = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            port = gone.getLocalPort();
        }
        OpenSockets sockets = new OpenSockets();
        assertThrows(java.io.IOException.class, () -> sockets.createSocket(InetAddress.getLoopbackAddress(), port));
        assertEquals(0, sockets.openCount());
    }
}
