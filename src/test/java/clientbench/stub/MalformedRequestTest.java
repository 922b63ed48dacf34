package clientbench.stub;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Garbage gets a 400 and a close, and never disturbs the next client. */
@Timeout(30)
class MalformedRequestTest {
    @RegisterExtension
    static final StubExtension stub = new StubExtension();

    @Test
    void garbageRequestLineGets400AndClose() throws IOException {
        assertRejected("GARBAGE\r\n\r\n");
    }

    @Test
    void oversizedHeaderGets400AndClose() throws IOException {
        assertRejected("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(20_000) + "\r\n\r\n");
    }

    @Test
    void invalidContentLengthGets400AndClose() throws IOException {
        assertRejected("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n");
    }

    private static void assertRejected(String request) throws IOException {
        try (RawHttp bad = new RawHttp(stub.port())) {
            RawHttp.Response r = bad.send(request).read();
            assertEquals(400, r.status());
            assertEquals("close", r.header("connection"));
            assertTrue(r.text().startsWith("malformed request"), r.text());
            assertEquals(-1, bad.readByte(), "connection closed after the 400");
        }
        try (RawHttp good = new RawHttp(stub.port())) {
            assertEquals(200, good.send(RawHttp.get("/")).read().status());
        }
    }
}
