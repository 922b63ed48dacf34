package clientbench.stub;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Parameters outside their range get a 400 naming the reason, and the connection stays usable. */
@Timeout(30)
class OutOfRangeParametersTest {
    @RegisterExtension
    static final StubExtension stub = new StubExtension();

    @ParameterizedTest
    @CsvSource({
            "delayMs=-1, delayMs must be",
            "delayMs=abc, delayMs must be an integer",
            "bytes=67108865, bytes must be 0-67108864",
            "bytes=-5, bytes must be",
            "status=99, status must be 100-599",
            "status=600, status must be 100-599",
            "fault=explode, fault must be reset, close, truncate or stall",
            "chunked=maybe, chunked must be true or false",
    })
    void outOfRangeParameterGets400WithTheReason(String query, String reason) throws IOException {
        try (RawHttp c = new RawHttp(stub.port())) {
            RawHttp.Response r = c.send(RawHttp.get("/?" + query)).read();
            assertEquals(400, r.status());
            assertTrue(r.text().contains(reason), r.text());
            assertEquals(200, c.send(RawHttp.get("/")).read().status(), "connection still serves");
        }
    }
}
