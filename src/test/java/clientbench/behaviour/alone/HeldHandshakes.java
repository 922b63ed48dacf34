package clientbench.behaviour.alone;

import clientbench.stub.HandshakeStall;
import clientbench.stub.StubOptions;
import clientbench.stub.StubServer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tls-stall case, for a library called directly: HTTPS to a front that never answers the ClientHello (stall) or
 * relays a TLS stub's answer a byte every 400 ms (trickle).
 */
final class HeldHandshakes {

    /** The ways a handshake is held up. */
    enum Way {
        STALL, TRICKLE
    }

    private HeldHandshakes() {
    }

    /**
     * 5 requests each way at once, {@code get} setting the library's own 1 s timeout: 1 s + 2 s after their send none
     * has ended, though every ClientHello reached its front, the trickle sent bytes and no request got through.
     */
    static void assertNoneEnds(List<Way> ways, StubHabits.Get get) throws Exception {
        try (StubServer tls = StubServer.start(StubOptions.loopback().withTls(true));
             HandshakeStall stall = HandshakeStall.stall();
             HandshakeStall trickle = HandshakeStall.trickle(tls.uri(), StubHabits.TRICKLE_MS)) {
            List<CompletableFuture<String>> calls = new ArrayList<>();
            for (Way way : ways) {
                for (int i = 0; i < 5; i++) {
                    calls.add(get.get((way == Way.STALL ? stall : trickle).uri() + "/?bytes=5", "tls-" + way + "-" + i));
                }
            }
            Thread.sleep(StubHabits.TIMEOUT.plus(StubHabits.LATE).toMillis());
            long ended = calls.stream().filter(CompletableFuture::isDone).count();
            assertAll(ways + ": stall " + stall.counts() + ", trickle " + trickle.counts() + ", ended "
                            + calls.stream().filter(CompletableFuture::isDone).map(CompletableFuture::join).toList(),
                    () -> assertTrue(!ways.contains(Way.STALL) || stall.counts().helloes() >= 5, "each stall reached"),
                    () -> assertTrue(!ways.contains(Way.TRICKLE) || trickle.counts().helloes() >= 5, "each trickle reached"),
                    () -> assertTrue(!ways.contains(Way.TRICKLE) || trickle.counts().bytesTrickled() > 0,
                            "the trickle answered, byte by byte"),
                    () -> assertEquals(0, StubHabits.reads(tls, "tls-"), "no request got through"),
                    () -> assertEquals(0, ended, "none ended within 1 s + 2 s"));
        }
    }
}
