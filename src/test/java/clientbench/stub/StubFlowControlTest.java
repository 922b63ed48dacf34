package clientbench.stub;

import clientbench.testkit.H2Frames;
import clientbench.testkit.H2Frames.Frame;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.EOFException;
import java.io.IOException;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HTTP/2 flow control as the stub counts it, set beside the frames a bare client sent and read: the WINDOW_UPDATEs
 * it reads, a paced body ({@code readPauseMs}) whose window stays shut until the stub has read on, and a client sending
 * past the window, its connection closed and counted once as its FLOW_CONTROL_ERROR (a body within it: none).
 */
@Timeout(30)
class StubFlowControlTest {

    /** RFC 9113's initial window, the stub's for each stream and for the connection. */
    private static final int WINDOW = 65_535;
    private static final int FRAME = 16_384;
    private static final int WINDOW_UPDATE = 0x8;
    private static final int FLOW_CONTROL_ERROR = 0x3;

    @Test
    void windowUpdatesReadOnTheConnectionAndOnAStreamAreCounted() throws Exception {
        try (StubServer stub = StubServer.start(StubOptions.loopback()); RawH2 c = new RawH2(stub.port())) {
            long before = stub.tally().windowUpdatesIn();
            c.windowUpdate(0, 1_000);
            c.get(1, "/?delayMs=200", null);
            c.windowUpdate(1, 1_000); // the stream is open on the stub's side until its answer
            untilEndOfStream(c, 1);
            assertTrue(until(() -> stub.tally().windowUpdatesIn() - before, 2), stub.tally().toJson());
        }
    }

    @Test
    void aPacedBodysWindowReopensOnlyAsTheStubReadsOn() throws Exception {
        long pauseMs = 300;
        try (StubServer stub = StubServer.start(StubOptions.loopback()); RawH2 c = new RawH2(stub.port())) {
            long sent = System.nanoTime();
            c.post(1, "/?bytes=5&readPauseMs=" + pauseMs);
            for (int n = 0; n < WINDOW; n += FRAME) {
                c.data(1, Math.min(FRAME, WINDOW - n), n + FRAME >= WINDOW);
            }
            int updates = 0;
            long firstUpdateMs = -1;
            for (Frame f = c.read(); !(f.stream() == 1 && (f.flags() & H2Frames.END_STREAM) != 0); f = c.read()) {
                if (f.type() == WINDOW_UPDATE && updates++ == 0) {
                    firstUpdateMs = (System.nanoTime() - sent) / 1_000_000;
                }
            }
            // Netty reopens a window once half of it is consumed: two reads of 16 KiB, each after a pause.
            assertTrue(firstUpdateMs >= 2 * pauseMs, "first WINDOW_UPDATE after " + firstUpdateMs + " ms");
            StubServer.Tally t = stub.tally();
            assertEquals(4, t.readPauses(), "one before the body, one after each 16 KiB but the last: " + t.toJson());
            assertEquals(1, t.pausedBodies());
            assertEquals(WINDOW, t.pausedBodyBytes());
            assertTrue(t.windowUpdatesOut() >= updates && updates >= 1, updates + " read; " + t.toJson());
            assertEquals(0, t.flowControlErrors());
        }
    }

    @Test
    void dataPastTheWindowIsCountedAsTheClientsFlowControlError() throws Exception {
        try (StubServer stub = StubServer.start(StubOptions.loopback()); RawH2 c = new RawH2(stub.port())) {
            c.post(1, "/?readPauseMs=10000"); // no WINDOW_UPDATE for 10 s
            for (int n = 0; n < WINDOW; n += FRAME) {
                c.data(1, Math.min(FRAME, WINDOW - n), false);
            }
            c.data(1, 1, true); // one byte past both windows
            boolean closed = false;
            try {
                for (int frames = 0; frames < 1_000; frames++) {
                    Frame f = c.read();
                    assertTrue(f.type() != H2Frames.HEADERS, "no answer to a body past the window");
                }
            } catch (EOFException | java.net.SocketException e) {
                closed = true; // the connection error: the stub closes the connection, its GOAWAY at best on the way
            }
            assertTrue(closed, "the stub closed the connection");
            assertTrue(until(() -> stub.tally().flowControlErrors(), 1), stub.tally().toJson());
        }
    }

    @Test
    void anAnswerPastTheClientsWindowIsUnsentUntilTheClientReopensIt() throws Exception {
        try (StubServer stub = StubServer.start(StubOptions.loopback()); RawH2 c = new RawH2(stub.port())) {
            c.get(1, "/?bytes=" + (WINDOW + 1_000), null);
            int data = 0;
            while (data < WINDOW) {
                Frame f = c.read();
                data += f.type() == H2Frames.DATA ? f.payload().length : 0;
            }
            assertEquals(WINDOW, data, "the client's window, no more");
            assertEquals(1, stub.tally().answersUnsent(), "held back: " + stub.tally().toJson());
            c.windowUpdate(0, 1_000);
            c.windowUpdate(1, 1_000);
            for (Frame f = c.read(); ; f = c.read()) {
                data += f.type() == H2Frames.DATA ? f.payload().length : 0;
                if (f.stream() == 1 && (f.flags() & H2Frames.END_STREAM) != 0) {
                    break;
                }
            }
            assertEquals(WINDOW + 1_000, data);
            assertTrue(until(() -> stub.tally().answersUnsent(), 0), "sent in full: " + stub.tally().toJson());
        }
    }

    private static void untilEndOfStream(RawH2 c, int stream) throws IOException {
        for (Frame f = c.read(); !(f.stream() == stream && (f.flags() & H2Frames.END_STREAM) != 0); f = c.read()) {
            // the answer's frames
        }
    }

    /** Whether {@code count} came to exactly {@code expected} within 5 s (it moves only towards it). */
    private static boolean until(LongSupplier count, long expected) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (count.getAsLong() != expected && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        return count.getAsLong() == expected;
    }
}
