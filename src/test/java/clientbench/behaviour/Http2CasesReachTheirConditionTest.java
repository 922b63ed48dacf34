package clientbench.behaviour;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each HTTP/2 case provokes its own condition and not the other's, by the stub's counts, with a client that keeps one
 * connection and queues at the server's stream limit (Vert.x): the stream limit met and no GOAWAY; GOAWAYs and no
 * limit below the callers. The settings say how many connections the client opened, as the stub counted them.
 */
@Timeout(120)
class Http2CasesReachTheirConditionTest {

    private static Map<String, Object> figures(BehaviourCase theCase) {
        CaseResult r = BehaviourProbe.one("vertx", 1, theCase);
        assertNotNull(r.figures(), r.toString());
        return r.figures();
    }

    private static int n(Map<String, Object> f, String name) {
        return ((Number) f.get(name)).intValue();
    }

    @Test
    void theStreamLimitCaseMeetsTheLimitAndSendsNoGoAway() {
        Map<String, Object> f = figures(new Http2StreamLimit());
        assertAll(f.toString(),
                () -> assertEquals(Http2StreamLimit.STREAMS, n(f, "peakStreams")),
                () -> assertEquals(0, n(f, "goAways")));
    }

    @Test
    void theGoAwayCaseSendsGoAwaysBelowTheStreamLimit() {
        CaseResult r = BehaviourProbe.one("vertx", 1, new Http2GoAway());
        Map<String, Object> f = r.figures();
        assertNotNull(f, r.toString());
        assertAll(f.toString(),
                () -> assertTrue(n(f, "goAways") >= 1, "a GOAWAY sent"),
                () -> assertEquals(n(f, "goAways"), n(f, "refusedByGoAway"), "one refused stream a GOAWAY"),
                () -> assertTrue(n(f, "peakStreams") <= Http2GoAway.CALLERS, "no more streams at once than callers"),
                () -> assertTrue(r.settings().get("h2Connections").startsWith(n(f, "connectionsOpened") + " opened"),
                        r.settings().get("h2Connections")));
    }
}
