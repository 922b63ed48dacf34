package clientbench.harness;

import clientbench.testkit.Prerequisites;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The kernel's count of connections to a target matches the target's address and its port, not the port alone. */
@Timeout(30)
class TcpConnectionsTest {

    @Test
    void addressesReadAsTheKernelWritesThem() throws Exception {
        assertEquals(List.of("0100007F", "0000000000000000FFFF00000100007F"),
                TcpConnections.tableForms(InetAddress.getByName("127.0.0.1")));
        assertEquals(List.of("00000000000000000000000001000000"), TcpConnections.tableForms(InetAddress.getByName("::1")));
    }

    @Test
    void onlyConnectionsToTheTargetsAddressAndPortCount() throws Exception {
        Prerequisites.require(TcpConnections.to(URI.create("http://127.0.0.1:1")).established() >= 0, "Linux's /proc/net/tcp (run the tests on Linux)");
        // Two servers on one port, two loopback addresses (Linux routes all of 127/8 to lo).
        try (ServerSocket a = new ServerSocket()) {
            a.bind(new InetSocketAddress("127.0.0.1", 0));
            int port = a.getLocalPort();
            try (ServerSocket b = new ServerSocket()) {
                b.bind(new InetSocketAddress("127.0.0.2", port));
                List<Socket> open = new ArrayList<>();
                try {
                    for (int i = 0; i < 3; i++) {
                        open.add(new Socket("127.0.0.1", port));
                    }
                    for (int i = 0; i < 2; i++) {
                        open.add(new Socket("127.0.0.2", port));
                    }
                    TcpConnections tcp = TcpConnections.to(URI.create("http://127.0.0.1:" + port));
                    // By port alone it would be 5: the other address's 2 too.
                    assertEquals(3, tcp.established());
                    try (TcpConnections.PeakSampler sampler = tcp.new PeakSampler()) {
                        open.add(new Socket("127.0.0.1", port));
                        open.add(new Socket("127.0.0.1", port));
                        // The sampler looks every 250 ms; a busy machine may delay it, so wait for its sample.
                        long deadline = System.nanoTime() + 10_000_000_000L;
                        while (sampler.peak() < 5 && System.nanoTime() < deadline) {
                            Thread.sleep(20);
                        }
                        open.remove(open.size() - 1).close();
                        open.remove(open.size() - 1).close();
                        long peak = sampler.peakAndReset();
                        assertTrue(peak == 5, "the sampled peak saw the 2 extra connections: " + peak);
                    }
                } finally {
                    for (Socket s : open) {
                        s.close();
                    }
                }
            }
        }
    }
}
