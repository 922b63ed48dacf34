package clientbench.stub;

import clientbench.testkit.H2Frames;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each habit the stub takes on by request provokes what it promises, seen by a bare socket whose behaviour is known
 * (nothing retried or pooled), and the stub counts it: a test here fails when the stub stops provoking its case.
 * Timings are lower bounds only (a timer never fires early); a busy machine can only make the stub later.
 */
@Timeout(30)
class StubHabitsTest {
    @RegisterExtension
    final StubExtension fresh = new StubExtension();

    @Test
    void idleFinClosesAnIdleConnectionInOrder() throws Exception {
        try (RawHttp c = new RawHttp(fresh.port())) {
            assertEquals(200, c.send(RawHttp.get("/?idleClose=fin&idleMs=100")).read().status());
            assertEquals(-1, c.readByte(), "an orderly close (FIN) once idle");
        }
        await(() -> fresh.server().tally().idleCloses() == 1, "counted once the FIN went out");
    }

    @Test
    void idleMsZeroClosesRightAfterTheWholeAnswer() throws Exception {
        try (RawHttp c = new RawHttp(fresh.port())) {
            RawHttp.Response r = c.send(RawHttp.get("/?idleClose=fin&idleMs=0&bytes=20000")).read();
            assertEquals(200, r.status());
            assertEquals(20_000, r.body().length, "the answer whole, flushed before the close");
            assertEquals(-1, c.readByte(), "then an orderly close (FIN), no Connection: close announced");
            assertFalse(r.head().toLowerCase(Locale.ROOT).contains("connection: close"), r.head());
        }
        await(() -> fresh.server().tally().idleCloses() == 1, "counted once the FIN went out");
    }

    /**
     * A FIN shuts only the stub's side: a request sent on the connection after it arrived is seen, counted by its key
     * apart from those read (it is not processed) and refused by a reset, as a closed socket refuses it.
     */
    @Test
    void aRequestSentAfterTheFinIsCountedApartAndRefused() throws Exception {
        StubServer stub = fresh.server();
        try (RawHttp c = new RawHttp(stub.port())) {
            assertEquals(200, c.send(RawHttp.get("/?idleClose=fin&idleMs=0")).read().status());
            assertEquals(-1, c.readByte(), "the FIN reached the client");
            await(() -> stub.tally().idleCloses() == 1 && stub.tally().idleClosesPending() == 0, "the FIN counted");
            c.send(post("/", "late-1"));
            await(() -> stub.tally().afterFinArrivals() == 1, "the request sent after the FIN seen");
            assertThrows(SocketException.class, () -> c.send(post("/", "later-2")).readByte(), "refused by a reset");
        }
        assertEquals(Map.of("late-1", 1), stub.seenAfterFin("late-"));
        assertEquals(Map.of(), stub.seen("late-"), "not read as processed");
        assertEquals(0, stub.tally().idleClosesPending());
    }

    /** An idle close armed and called off by the next request is pending no more; one that went out is counted. */
    @Test
    void anIdleCloseIsPendingUntilItGoesOutOrTheNextRequestCallsItOff() throws Exception {
        StubServer stub = fresh.server();
        try (RawHttp c = new RawHttp(stub.port())) {
            assertEquals(200, c.send(RawHttp.get("/?idleClose=fin&idleMs=60000")).read().status());
            await(() -> stub.tally().idleClosesPending() == 1, "armed for a minute");
            assertEquals(200, c.send(RawHttp.get("/?idleClose=fin&idleMs=100")).read().status());
            await(() -> stub.tally().idleCloses() == 1, "the second went out");
            assertEquals(-1, c.readByte());
        }
        assertEquals(0, stub.tally().idleClosesPending(), "the first called off, the second done");
    }

    @Test
    void idleRstResetsAnIdleConnection() throws Exception {
        try (RawHttp c = new RawHttp(fresh.port())) {
            assertEquals(200, c.send(RawHttp.get("/?idleClose=rst&idleMs=100")).read().status());
            SocketException e = assertThrows(SocketException.class, c::readByte, "an abortive close (RST) once idle");
            assertTrue(String.valueOf(e.getMessage()).contains("reset"), e.toString());
        }
        assertEquals(1, fresh.server().tally().idleCloses());
    }

    /** A connection in use is not idle: requests back to back within idleMs (2 s, which no busy machine stalls) all pass. */
    @Test
    void aConnectionInUseIsNeverClosedAsIdle() throws Exception {
        try (RawHttp c = new RawHttp(fresh.port())) {
            for (String mode : new String[] {"fin", "rst", "race", "fin", "race"}) {
                assertEquals(200, c.send(RawHttp.get("/?idleMs=2000&idleClose=" + mode)).read().status(), mode);
            }
        }
        StubServer.Tally t = fresh.server().tally();
        assertEquals(0, t.idleCloses() + t.raceCloses(), t.toString());
    }

    /**
     * Race: the idle connection stays open, and the next request's head is read and the connection closed under it,
     * unanswered. Sent again on a fresh connection it is answered; the stub read its key twice: one logical request,
     * two sends, as a client that resends it would cause.
     */
    @Test
    void raceClosesAnIdleConnectionAsTheNextRequestArrives() throws Exception {
        StubServer stub = fresh.server();
        try (RawHttp c = new RawHttp(stub.port())) {
            assertEquals(200, c.send(RawHttp.get("/?idleClose=race&idleMs=100")).read().status());
            Thread.sleep(300); // idle for at least idleMs: a sleep is never shorter than asked
            assertEquals(1, stub.openConnections(), "left open while idle");
            c.send(post("/?idleClose=race&idleMs=100", "order-7"));
            int first;
            try {
                first = c.readByte();
            } catch (SocketException reset) {
                first = -1; // the body was still unread when the stub closed: the kernel answers with a reset
            }
            assertEquals(-1, first, "closed without a byte of answer");
        }
        try (RawHttp again = new RawHttp(stub.port())) {
            assertEquals(200, again.send(post("/?idleClose=race&idleMs=100", "order-7")).read().status(), "a fresh connection");
        }
        assertEquals(Map.of("order-7", 2), stub.seen("order-"));
        assertEquals(Map.of("order-7", 1), stub.seenRaceClosed("order-"), "the race closed under its first send");
        assertEquals(1, stub.tally().raceCloses());
    }

    @Test
    void neverAnswersAndKeepsTheConnectionOpen() throws Exception {
        StubServer stub = fresh.server();
        try (RawHttp c = new RawHttp(stub.port())) {
            c.socket.setSoTimeout(700);
            c.send(RawHttp.get("/?fault=never"));
            assertThrows(SocketTimeoutException.class, c::readByte, "no answer");
            assertEquals(1, stub.openConnections());
            assertEquals(1, stub.tally().inFlight(), "the request is held");
        }
        await(() -> stub.tally().inFlight() == 0 && stub.openConnections() == 0, "released when the client closed");
    }

    /**
     * A held answer goes out only once the stub's owner releases it, and a request asking to be held after the release is
     * answered at once. One event loop answers in order: the other connection's answer came after the held one would have.
     */
    @Test
    void aHeldAnswerGoesOutOnlyOnceReleased() throws Exception {
        StubServer stub = fresh.server();
        try (RawHttp held = new RawHttp(stub.port()); RawHttp other = new RawHttp(stub.port())) {
            held.send(RawHttp.get("/?hold=true"));
            await(() -> stub.tally().inFlight() == 1, "the request read and held");
            assertEquals(200, other.send(RawHttp.get("/")).read().status(), "another connection answered meanwhile");
            assertEquals(0, held.socket.getInputStream().available(), "the held answer went out before the release");
            stub.releaseHeld();
            assertEquals(200, held.read().status());
            assertEquals(200, held.send(RawHttp.get("/?hold=true")).read().status(), "none held after the release");
        }
    }

    /** The head at once, then the body a byte a second: two bytes take at least one interval after the first. */
    @Test
    void trickleSendsTheHeadThenTheBodyAByteASecond() throws Exception {
        try (RawHttp c = new RawHttp(fresh.port())) {
            String head = c.send(RawHttp.get("/?fault=trickle&bytes=2")).readHead();
            long headNanos = System.nanoTime();
            assertTrue(head.startsWith("HTTP/1.1 200") && head.contains("content-length: 2"), head);
            assertTrue(c.readByte() >= 0);
            assertTrue(c.readByte() >= 0);
            long millis = (System.nanoTime() - headNanos) / 1_000_000;
            assertTrue(millis >= 1_900, "two trickled bytes in " + millis + " ms, not >= 2 s");
        }
        await(() -> fresh.server().tally().inFlight() == 0, "answered in full, the request no longer held");
    }

    /** trickleMs sets the interval: three bytes 300 ms apart take at least 900 ms, and far less than a second each. */
    @Test
    void trickleMsSetsTheIntervalBetweenTheBytes() throws Exception {
        try (RawHttp c = new RawHttp(fresh.port())) {
            long sent = System.nanoTime();
            String head = c.send(RawHttp.get("/?fault=trickle&bytes=3&trickleMs=300")).readHead();
            assertTrue(head.startsWith("HTTP/1.1 200") && head.contains("content-length: 3"), head);
            for (int i = 0; i < 3; i++) {
                assertTrue(c.readByte() >= 0);
            }
            long millis = (System.nanoTime() - sent) / 1_000_000;
            assertTrue(millis >= 890, "three bytes 300 ms apart in " + millis + " ms");
            assertTrue(millis < 2_900, "three bytes in " + millis + " ms: the default second apart, not 300 ms");
        }
    }

    @Test
    void closeEveryEndsEveryNthAnswerWithConnectionClose() throws Exception {
        StubServer stub = fresh.server();
        for (int connection = 0; connection < 2; connection++) {
            try (RawHttp c = new RawHttp(stub.port())) {
                for (int i = 1; i <= 3; i++) {
                    RawHttp.Response r = c.send(RawHttp.get("/?closeEvery=3&status=500&bytes=100")).read();
                    assertEquals(500, r.status());
                    assertEquals(100, r.body().length, "an error with a body");
                    assertEquals(i == 3 ? "close" : null, r.header("connection"), "answer " + i);
                }
                assertEquals(-1, c.readByte(), "closed after the third answer");
            }
        }
        assertEquals(2, stub.stats().accepted());
        assertEquals(2, stub.tally().closeEveryCloses());
    }

    @Test
    void idempotencyKeysAreCountedEachTimeARequestIsRead() throws Exception {
        StubServer stub = fresh.server();
        try (RawHttp c = new RawHttp(stub.port())) {
            for (String key : new String[] {"a", "b", "a"}) {
                assertEquals(200, c.send(post("/", key)).read().status());
            }
            assertEquals(200, c.send(RawHttp.get("/")).read().status()); // no key: not counted
        }
        assertEquals(Map.of("a", 2, "b", 1), stub.seen(""));
        assertEquals(2, stub.tally().keys());
    }

    @Test
    void peakInFlightCountsTheRequestsHeldAtOnce() throws Exception {
        StubServer stub = fresh.server();
        List<RawHttp> open = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                open.add(new RawHttp(stub.port()).send(RawHttp.get("/?delayMs=1000")));
            }
            await(() -> stub.tally().inFlight() == 3, "three requests held");
            for (RawHttp c : open) {
                assertEquals(200, c.read().status());
            }
        } finally {
            for (RawHttp c : open) {
                c.close();
            }
        }
        assertEquals(3, stub.tally().peakInFlight());
        assertEquals(0, stub.tally().inFlight());
        stub.restartPeakInFlight();
        assertEquals(0, stub.tally().peakInFlight(), "a new window: none held since");
    }

    /**
     * GOAWAY at every third stream: streams 1 and 3 are answered; stream 5 gets a GOAWAY whose last stream is 3, no
     * answer, and the connection closes. Its key is not counted as read: the server says it did not process it.
     */
    @Test
    void goAwayEveryRefusesTheNthStreamAndClosesTheConnection() throws Exception {
        StubServer stub = fresh.server();
        try (RawH2 c = new RawH2(stub.port())) {
            for (int id : new int[] {1, 3}) {
                c.get(id, "/?goAwayEvery=3", "k" + id);
                H2Frames.Frame f;
                do {
                    f = c.read();
                } while (!f.endsStream() || f.stream() != id);
            }
            c.get(5, "/?goAwayEvery=3", "k5");
            List<H2Frames.Frame> after = c.untilClosed();
            List<H2Frames.Frame> goAways = after.stream().filter(f -> f.type() == H2Frames.GOAWAY).toList();
            assertEquals(1, goAways.size(), "one GOAWAY, then the connection closed: " + after);
            assertEquals(3, goAways.get(0).firstInt(), "its last stream: the one before the refused stream");
            assertTrue(after.stream().noneMatch(f -> f.stream() == 5 && f.type() == H2Frames.HEADERS), "stream 5 unanswered");
        }
        assertEquals(Map.of("k1", 1, "k3", 1), stub.seen("k"));
        assertEquals(1, stub.tally().goAways());
        assertEquals(1, stub.tally().refusedStreams());
    }

    /**
     * Streams sent at once, as a client with many callers sends them: those below the GOAWAY's last stream are each
     * answered once before the connection closes; the refused one and every later one are never processed (a client
     * sends them again, so a processed one would be read twice).
     */
    @Test
    void aGoAwayAnswersEveryStreamBelowItsLastAndProcessesNoneAbove() throws Exception {
        StubServer stub = fresh.server();
        List<H2Frames.Frame> frames;
        try (RawH2 c = new RawH2(stub.port())) {
            for (int id = 1; id <= 9; id += 2) {
                c.get(id, "/?goAwayEvery=3", "s" + id);
            }
            frames = c.untilClosed();
        }
        List<H2Frames.Frame> goAways = frames.stream().filter(f -> f.type() == H2Frames.GOAWAY).toList();
        assertEquals(1, goAways.size(), frames.toString());
        assertEquals(3, goAways.get(0).firstInt());
        assertEquals(java.util.Set.of(1, 3), frames.stream().filter(H2Frames.Frame::endsStream).map(H2Frames.Frame::stream)
                .collect(java.util.stream.Collectors.toSet()), "streams 1 and 3 answered in full, no other");
        assertEquals(Map.of("s1", 1, "s3", 1), stub.seen("s"), "streams 5, 7 and 9 never processed");
        assertEquals(1, stub.tally().goAways());
        assertEquals(1, stub.tally().refusedStreams(), "the GOAWAY's own stream; later ones the codec drops unread");
    }

    /** With ten streams allowed, an eleventh at once is refused (RST_STREAM REFUSED_STREAM); the ten are answered. */
    @Test
    void aStreamPastTheLimitOfTenIsRefused() throws Exception {
        try (StubServer stub = StubServer.start(new StubOptions("127.0.0.1", 0, 1, false, false, 10));
             RawH2 c = new RawH2(stub.port())) {
            for (int i = 0; i < 11; i++) {
                c.get(1 + 2 * i, "/?delayMs=500", null);
            }
            int answered = 0;
            H2Frames.Frame refused = null;
            while (answered + (refused == null ? 0 : 1) < 11) {
                H2Frames.Frame f = c.read();
                if (f.type() == H2Frames.RST_STREAM) {
                    assertNull(refused, "a second refusal");
                    refused = f;
                } else if (f.endsStream()) {
                    answered++;
                }
            }
            assertNotNull(refused);
            assertEquals(21, refused.stream(), "the eleventh stream");
            assertEquals(H2Frames.REFUSED_STREAM, refused.firstInt());
            assertEquals(10, answered);
            assertEquals(10, stub.stats().peakStreams(), "the streams open at once on the connection: the limit");
        }
    }

    /**
     * headerBytes pads the head, status line to blank line, to exactly that many bytes, in header lines no longer than a
     * cookie may be, on a connection kept alive; the body follows as asked. The stub counts each padded head it sent.
     */
    @Test
    void headerBytesPadsTheHeadToExactlyThatManyBytes() throws Exception {
        StubServer stub = fresh.server();
        int[] sizes = {1024, 6 * 1024, 12 * 1024, 40 * 1024 + 1};
        try (RawHttp c = new RawHttp(stub.port())) {
            for (int n : sizes) {
                RawHttp.Response r = c.send(RawHttp.get("/?bytes=10&headerBytes=" + n)).read();
                assertEquals(200, r.status());
                assertEquals(n, r.head().length(), "the head's bytes for headerBytes=" + n);
                assertEquals(10, r.body().length);
                assertEquals("10", r.header("content-length"));
                for (String line : r.head().split("\r\n")) {
                    assertTrue(line.length() + 2 <= StubResponses.PAD_LINE_BYTES, "a line of " + line.length());
                }
            }
            String chunked = c.send(RawHttp.get("/?chunked=true&bytes=0&headerBytes=9000")).readHead();
            assertEquals(9000, chunked.length());
            assertEquals("0", new String(c.socket.getInputStream().readNBytes(5), java.nio.charset.StandardCharsets.US_ASCII)
                    .trim(), "the chunked body's last chunk");
            assertEquals(400, c.send(RawHttp.get("/?headerBytes=100")).read().status(), "too small to pad");
        }
        assertEquals(sizes.length + 1, stub.tally().largeHeads(), "each padded head sent, not the 400");
    }

    private static String post(String path, String key) {
        return "POST " + path + " HTTP/1.1\r\nHost: localhost\r\nIdempotency-Key: " + key
                + "\r\nContent-Type: application/octet-stream\r\nContent-Length: 4\r\n\r\nbody";
    }

    /** Waits for a count the stub updates on its event loop; the deadline is one a passing run never nears. */
    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 15_000_000_000L;
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertTrue(condition.getAsBoolean(), what);
    }
}
