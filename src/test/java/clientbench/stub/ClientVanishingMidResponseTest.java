package clientbench.stub;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Clients that disappear in the middle of a large response cost only their own connection. */
@Timeout(60)
class ClientVanishingMidResponseTest {
    @RegisterExtension
    static final StubExtension stub = new StubExtension();

    @Test
    void vanishingClientsDoNotHurtAConnectionThatStays() throws Exception {
        try (RawHttp stays = new RawHttp(stub.port())) {
            assertEquals(200, stays.send(RawHttp.get("/")).read().status());
            for (int i = 0; i < 20; i++) {
                RawHttp gone = new RawHttp(stub.port());
                gone.send(RawHttp.get("/?bytes=" + 32 * 1024 * 1024));
                gone.readByte();
                gone.socket.setSoLinger(true, 0); // abortive close: the stub's next write meets a reset
                gone.close();
                assertEquals(200, stays.send(RawHttp.get("/?bytes=100")).read().status());
            }
        }
        long deadline = System.nanoTime() + 15_000_000_000L; // a deadline a passing run never nears: closes take milliseconds
        while (stub.openConnections() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(0, stub.openConnections(), "every vanished connection was closed by the stub");
        try (RawHttp after = new RawHttp(stub.port())) {
            assertTrue(after.send(RawHttp.get("/?bytes=1048576")).read().body().length == 1_048_576);
        }
    }

    @Test
    void closingBeforeADelayedAnswerIsHarmless() throws IOException, InterruptedException {
        for (int i = 0; i < 50; i++) {
            try (RawHttp c = new RawHttp(stub.port())) {
                c.send(RawHttp.get("/?delayMs=100"));
            }
        }
        Thread.sleep(300); // every timer has fired on a closed channel
        try (RawHttp c = new RawHttp(stub.port())) {
            assertEquals(200, c.send(RawHttp.get("/")).read().status());
        }
    }
}
