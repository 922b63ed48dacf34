package clientbench.harness.probe;

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
import java.util.Set;
import java.util.stream.Collectors;

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

    /**
     * One read of /proc/net/tcp6 taken while other JVMs opened and closed connections: 5 connections to port 39349
     * (hex 99B5) in 9 rows, three of them listed again with new row numbers. A listener and a row to another address
     * on the same port stay out.
     */
    private static final String REPEATED_ROWS = """
              0: 0000000000000000FFFF00000100007F:99B5 00000000000000000000000000000000:0000 0A 00000000:00000005 00:00000000 00000000     0        0 44004 6 00000000747a2ae1 100 0 0 10 0
             13: 0000000000000000FFFF00000100007F:99C6 0000000000000000FFFF00000200007F:99B5 01 00000000:00000000 00:00000000 00000000     0        0 44010 2 000000003d45bf92 20 0 0 10 -1
            299: 0000000000000000FFFF00000100007F:C484 0000000000000000FFFF00000100007F:99B5 01 00000000:00000000 00:00000000 00000000     0        0 44005 1 0000000098c53158 20 0 0 10 -1
            300: 0000000000000000FFFF00000100007F:C490 0000000000000000FFFF00000100007F:99B5 01 00000000:00000000 00:00000000 00000000     0        0 44006 1 00000000ec38f4cf 20 0 0 10 -1
            301: 0000000000000000FFFF00000100007F:C49C 0000000000000000FFFF00000100007F:99B5 01 00000000:00000000 00:00000000 00000000     0        0 44007 1 00000000dd4bc515 20 0 0 10 -1
            302: 0000000000000000FFFF00000100007F:C49E 0000000000000000FFFF00000100007F:99B5 01 00000000:00000000 00:00000000 00000000     0        0 44008 1 0000000052cab5a9 20 0 0 10 -1
            303: 0000000000000000FFFF00000100007F:C4A0 0000000000000000FFFF00000100007F:99B5 01 00000000:00000000 00:00000000 00000000     0        0 44009 1 0000000054e2edcb 20 0 0 10 -1
            304: 0000000000000000FFFF00000100007F:C4A0 0000000000000000FFFF00000100007F:99B5 01 00000000:00000000 00:00000000 00000000     0        0 44009 1 0000000054e2edcb 20 0 0 10 -1
            305: 0000000000000000FFFF00000100007F:C49C 0000000000000000FFFF00000100007F:99B5 01 00000000:00000000 00:00000000 00000000     0        0 44007 1 00000000dd4bc515 20 0 0 10 -1
            306: 0000000000000000FFFF00000100007F:C49E 0000000000000000FFFF00000100007F:99B5 01 00000000:00000000 00:00000000 00000000     0        0 44008 1 0000000052cab5a9 20 0 0 10 -1
            307: 0000000000000000FFFF00000100007F:C4A0 0000000000000000FFFF00000100007F:99B5 01 00000000:00000000 00:00000000 00000000     0        0 44009 1 0000000054e2edcb 20 0 0 10 -1
            """;

    @Test
    void rowsTheKernelRepeatsInOneReadCountOnce() {
        TcpConnections tcp = TcpConnections.to(URI.create("http://127.0.0.1:39349"));
        assertEquals(Set.of("0000000000000000FFFF00000100007F:C484", "0000000000000000FFFF00000100007F:C490",
                        "0000000000000000FFFF00000100007F:C49C", "0000000000000000FFFF00000100007F:C49E",
                        "0000000000000000FFFF00000100007F:C4A0"),
                tcp.connections(REPEATED_ROWS.lines()).stream().map(c -> c.split(" ")[0]).collect(Collectors.toSet()));
        assertEquals(5, tcp.connections(REPEATED_ROWS.lines()).size());
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
                        long peak = sampler.peakAndReset(tcp.established());
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
