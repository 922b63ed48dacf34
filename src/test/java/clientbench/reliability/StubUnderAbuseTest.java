package clientbench.reliability;

import clientbench.harness.StubProcess;
import clientbench.stub.StubExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Isolated;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Abused by some clients, the stub keeps serving everyone else: a GET on a fresh connection is answered while slow
 * requests are still incomplete and idle connections open. No duration is asserted: each read has a deadline
 * ({@link #DEADLINE_MILLIS}), so a stub held up by its abusers fails the test rather than hanging it.
 */
@org.junit.jupiter.api.Tag("reliability") // a long test: mvn verify (Failsafe), not mvn package
@Timeout(120)
@Isolated // 15,000 connections of this JVM: no other test's ports and descriptors beside them
class StubUnderAbuseTest {
    @RegisterExtension
    final StubExtension stub = new StubExtension(); // one a test: no abuse outlives its test

    /** How long a connect or a read may wait: it takes milliseconds, and this only ends a stub that never answers. */
    static final int DEADLINE_MILLIS = 10_000;

    /** One GET on a fresh connection; returns its status. */
    static int getOnAFreshConnection(URI stub) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(stub.getHost(), stub.getPort()), DEADLINE_MILLIS);
            s.setSoTimeout(DEADLINE_MILLIS);
            s.getOutputStream().write("GET /?bytes=3 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] head = new byte[12];
            int n = s.getInputStream().readNBytes(head, 0, 12);
            assertEquals(12, n);
            return Integer.parseInt(new String(head, 9, 3, StandardCharsets.US_ASCII));
        }
    }

    @Test
    void slowClientsDoNotHoldUpOthers() throws Exception {
        List<Socket> slow = new ArrayList<>();
        try {
            for (int i = 0; i < 200; i++) {
                Socket s = new Socket("127.0.0.1", stub.port());
                slow.add(s);
            }
            byte[] request = "GET /?bytes=5 HTTP/1.1\r\nHost: slow\r\nX-Pad: aaaaaaaaaaaaaaaaaaaa\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            for (int b = 0; b < 30; b++) { // a byte at a time, 200 connections, for about 1.5 s: none completes its request
                for (Socket s : slow) {
                    s.getOutputStream().write(request[b]);
                }
                assertEquals(200, getOnAFreshConnection(stub.uri()));
                Thread.sleep(50);
            }
        } finally {
            for (Socket s : slow) {
                s.close();
            }
        }
    }

    @Test
    void aHugeRequestBodyIsStreamedAndCountedNotBuffered() throws Exception {
        try (Socket s = new Socket("127.0.0.1", stub.port())) {
            long size = 48L * 1024 * 1024;
            OutputStream out = s.getOutputStream();
            out.write(("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: " + size + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            byte[] chunk = new byte[64 * 1024];
            for (long sent = 0; sent < size; sent += chunk.length) {
                out.write(chunk);
            }
            out.flush();
            s.setSoTimeout(DEADLINE_MILLIS);
            StringBuilder sb = new StringBuilder();
            InputStream in = s.getInputStream();
            while (!sb.toString().endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    break;
                }
                sb.append((char) b);
            }
            String head = sb.toString();
            assertTrue(head.startsWith("HTTP/1.1 200"), head);
            assertTrue(head.contains("x-request-bytes: " + size), head);
            assertEquals(200, getOnAFreshConnection(stub.uri()));
        }
    }

    @Test
    void fifteenThousandIdleConnectionsAndStillServing() throws Exception {
        // The stub in its own JVM: with both ends in this one, 30,000 descriptors would pass the 20,000 limit.
        try (StubProcess stub = StubProcess.start(false, false)) {
            List<SocketChannel> idle = new ArrayList<>(15_000);
            try {
                InetSocketAddress address = new InetSocketAddress(stub.uri().getHost(), stub.uri().getPort());
                for (int i = 0; i < 15_000; i++) {
                    idle.add(SocketChannel.open(address));
                }
                for (int i = 0; i < 20; i++) {
                    assertEquals(200, getOnAFreshConnection(stub.uri()));
                }
                // The first idle connections still work too.
                SocketChannel first = idle.get(0);
                first.write(java.nio.ByteBuffer.wrap("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
                first.socket().setSoTimeout(DEADLINE_MILLIS);
                InputStream in = first.socket().getInputStream();
                byte[] status = in.readNBytes(12);
                assertEquals("HTTP/1.1 200", new String(status, StandardCharsets.US_ASCII));
            } finally {
                for (SocketChannel c : idle) {
                    c.close();
                }
            }
        }
    }
}
