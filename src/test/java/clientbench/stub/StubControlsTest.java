package clientbench.stub;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.SocketException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each query parameter does what the stub's documentation says, and nothing else. */
@Timeout(30)
class StubControlsTest {
    @RegisterExtension
    static final StubExtension stub = new StubExtension();

    @Test
    void defaultResponseIsA200WithFiveBytes() throws IOException {
        try (RawHttp c = new RawHttp(stub.port())) {
            RawHttp.Response r = c.send(RawHttp.get("/")).read();
            assertEquals(200, r.status());
            assertEquals(5, r.body().length);
            assertEquals("5", r.header("content-length"));
        }
    }

    @Test
    void bytesSetsTheBodyLength() throws IOException {
        try (RawHttp c = new RawHttp(stub.port())) {
            for (int n : new int[] {0, 1, 1024, 16 * 1024, 16 * 1024 + 1, 1024 * 1024, 3 * 1024 * 1024 + 7}) {
                RawHttp.Response r = c.send(RawHttp.get("/any/path?bytes=" + n)).read();
                assertEquals(200, r.status());
                assertEquals(n, r.body().length, "body for bytes=" + n);
            }
        }
    }

    @Test
    void statusSetsTheStatusCode() throws IOException {
        try (RawHttp c = new RawHttp(stub.port())) {
            for (int s : new int[] {201, 404, 500, 503, 599}) {
                assertEquals(s, c.send(RawHttp.get("/?status=" + s)).read().status());
            }
            RawHttp.Response noContent = c.send(RawHttp.get("/?status=204&bytes=100")).read();
            assertEquals(204, noContent.status());
            assertNull(noContent.header("content-length"), "204 carries no Content-Length");
        }
    }

    /**
     * The stub has one event loop, so a delay that slept on it would hold the other connection's answer: the fast
     * answer must come while the delayed one is pending (checked by what it received, not by a clock), the delayed one
     * no sooner than asked. A busy machine only makes answers later: 2 s leaves the fast one room.
     */
    @Test
    void delayMsDelaysTheAnswerWithoutBlockingOtherConnections() throws Exception {
        try (RawHttp slow = new RawHttp(stub.port()); RawHttp fast = new RawHttp(stub.port())) {
            long t0 = System.nanoTime();
            slow.send(RawHttp.get("/?delayMs=2000"));
            assertEquals(200, fast.send(RawHttp.get("/")).read().status());
            assertEquals(0, slow.socket.getInputStream().available(), "the delayed answer came before the other connection's");
            assertEquals(200, slow.read().status());
            long slowMs = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(slowMs >= 2_000, "delayed answer came after " + slowMs + " ms");
        }
    }

    @Test
    void postBodyIsReadAndItsLengthEchoed() throws IOException {
        String body = "x".repeat(1024);
        try (RawHttp c = new RawHttp(stub.port())) {
            RawHttp.Response r = c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1024\r\n\r\n" + body).read();
            assertEquals(200, r.status());
            assertEquals("1024", r.header("x-request-bytes"));
            RawHttp.Response chunked = c.send("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "3\r\nabc\r\n4\r\ndefg\r\n0\r\n\r\n").read();
            assertEquals("7", chunked.header("x-request-bytes"));
        }
    }

    @Test
    void faultResetSendsATcpReset() throws IOException {
        try (RawHttp c = new RawHttp(stub.port())) {
            c.send(RawHttp.get("/?fault=reset"));
            SocketException e = assertThrows(SocketException.class, c::readByte);
            assertTrue(e.getMessage().toLowerCase().contains("reset"), e.getMessage());
        }
    }

    @Test
    void faultCloseClosesWithoutAResponse() throws IOException {
        try (RawHttp c = new RawHttp(stub.port())) {
            c.send(RawHttp.get("/?fault=close"));
            assertEquals(-1, c.readByte());
        }
    }

    @Test
    void faultTruncateAnnouncesTheBodyThenClosesAfterHalfOfIt() throws IOException {
        try (RawHttp c = new RawHttp(stub.port())) {
            String head = c.send(RawHttp.get("/?fault=truncate&bytes=1000")).readHead();
            assertTrue(head.startsWith("HTTP/1.1 200") && head.contains("content-length: 1000\r\n"), head);
            int n = 0;
            while (c.readByte() >= 0) {
                n++;
            }
            assertEquals(500, n, "body bytes before the close");
        }
    }

    @Test
    void chunkedSendsTheBodyInChunksThatAddUpToBytes() throws IOException {
        try (RawHttp c = new RawHttp(stub.port())) {
            String head = c.send(RawHttp.get("/?chunked=true&bytes=10000")).readHead();
            assertTrue(head.contains("transfer-encoding: chunked\r\n") && !head.contains("content-length"), head);
            int total = 0;
            int chunks = 0;
            while (true) {
                StringBuilder size = new StringBuilder();
                for (int b; (b = c.readByte()) != '\r'; ) {
                    size.append((char) b);
                }
                assertEquals('\n', c.readByte());
                int n = Integer.parseInt(size.toString(), 16);
                for (int i = 0; i < n + 2; i++) { // the data and its CRLF
                    c.readByte();
                }
                if (n == 0) {
                    break;
                }
                total += n;
                chunks++;
            }
            assertEquals(10_000, total);
            assertEquals(3, chunks, "4096 + 4096 + 1808");
            assertEquals(5, c.send(RawHttp.get("/")).read().body().length, "the connection is still in step");
        }
    }

    @Test
    void faultStallSendsHalfTheBodyThenNothingAndKeepsTheConnection() throws IOException {
        try (RawHttp c = new RawHttp(stub.port())) {
            String head = c.send(RawHttp.get("/?fault=stall&bytes=1000")).readHead();
            assertTrue(head.contains("content-length: 1000\r\n"), head);
            for (int i = 0; i < 500; i++) {
                assertTrue(c.readByte() >= 0, "body byte " + i);
            }
            c.socket.setSoTimeout(300);
            // A close would read as -1 at once; a stall reads as nothing at all.
            assertThrows(java.net.SocketTimeoutException.class, c::readByte, "nothing after half the body, no close");
        }
    }

    @Test
    void keepAliveFalseAnswersThenCloses() throws IOException {
        try (RawHttp c = new RawHttp(stub.port())) {
            RawHttp.Response r = c.send(RawHttp.get("/?keepAlive=false&bytes=3")).read();
            assertEquals(200, r.status());
            assertEquals(3, r.body().length);
            assertEquals("close", r.header("connection"));
            assertEquals(-1, c.readByte(), "the stub closed the connection after the answer");
        }
    }

    @Test
    void headGetsHeadersOnly() throws IOException {
        try (RawHttp c = new RawHttp(stub.port())) {
            String head = c.send("HEAD /?bytes=100 HTTP/1.1\r\nHost: x\r\n\r\n").readHead();
            assertTrue(head.contains("content-length: 100\r\n"), head);
            // The next response must start right away: a body after HEAD would corrupt it.
            assertEquals(5, c.send(RawHttp.get("/")).read().body().length);
        }
    }
}
