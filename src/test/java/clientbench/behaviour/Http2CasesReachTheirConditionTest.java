package clientbench.behaviour;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each HTTP/2 case provokes its own condition and not the other's, and its figures are what a client of known habits
 * ({@link KnownH2Client}) itself counted: GOAWAYs received, connections opened, streams open at once, failures.
 */
@Timeout(120)
class Http2CasesReachTheirConditionTest {

    private record Ran(KnownH2Client client, CaseResult result) {
        int figure(String name) {
            assertNotNull(result.figures(), result.toString());
            return ((Number) result.figures().get(name)).intValue();
        }

        @SuppressWarnings("unchecked")
        int failures() {
            return ((Map<String, Number>) result.figures().get("failures")).values().stream().mapToInt(Number::intValue).sum();
        }
    }

    private static final Map<String, Ran> RAN = new LinkedHashMap<>();

    @BeforeAll
    static void runEachCaseWithEachHabit() {
        RAN.put("limit, queueing", run(new Http2StreamLimit(), new KnownH2Client.Knobs(true, true)));
        RAN.put("limit, sending past it", run(new Http2StreamLimit(), new KnownH2Client.Knobs(false, true)));
        RAN.put("goaway, resending", run(new Http2GoAway(), new KnownH2Client.Knobs(true, true)));
        RAN.put("goaway, failing", run(new Http2GoAway(), new KnownH2Client.Knobs(true, false)));
    }

    private static Ran run(BehaviourCase theCase, KnownH2Client.Knobs knobs) {
        List<KnownH2Client> built = new ArrayList<>();
        CaseResult r = BehaviourProbe.one(new CaseContext("known-h2", theCase, 1, (name, config) -> {
            KnownH2Client c = new KnownH2Client(config, knobs);
            built.add(c);
            return c;
        }), theCase);
        return new Ran(built.isEmpty() ? null : built.get(0), r);
    }

    @Test
    void theStreamLimitCaseMeetsTheLimitAndSendsNoGoAway() {
        Ran q = RAN.get("limit, queueing");
        Ran past = RAN.get("limit, sending past it");
        assertAll(q.result() + " / " + past.result(),
                () -> assertEquals(Http2StreamLimit.STREAMS, q.client().peakStreams.get(), "the client queued at the limit"),
                () -> assertEquals(q.client().peakStreams.get(), q.figure("peakStreams")),
                () -> assertEquals(0, q.failures()),
                () -> assertEquals(0, q.figure("goAways") + q.client().goAways.get()),
                () -> assertTrue(past.client().resets.get() > 0, "streams past the limit refused"),
                () -> assertEquals(past.client().failed.get(), past.failures(), "the failures the client reported"),
                () -> assertEquals(Http2StreamLimit.STREAMS, past.figure("peakStreams")));
    }

    @Test
    void theGoAwayCaseSendsGoAwaysTheClientReceives() {
        Ran resend = RAN.get("goaway, resending");
        Ran fail = RAN.get("goaway, failing");
        assertAll(resend.result() + " / " + fail.result(),
                () -> assertTrue(resend.figure("goAways") > 0, "a GOAWAY sent"),
                () -> assertEquals(resend.client().goAways.get(), resend.figure("goAways"), "each one received"),
                () -> assertEquals(resend.client().connects.get(), resend.figure("connectionsOpened")),
                () -> assertEquals(0, resend.failures(), "every refused stream sent again"),
                () -> assertEquals(0, resend.figure("requestSentTwice"), "a refused stream was never processed"),
                () -> assertEquals(fail.client().goAways.get(), fail.figure("goAways")),
                () -> assertEquals(fail.client().failed.get(), fail.failures(), "the failures the client reported"),
                () -> assertTrue(fail.client().refusedByGoAway.get() >= fail.figure("goAways"), "a stream refused each"),
                () -> assertTrue(fail.failures() > 0),
                () -> assertTrue(resend.result().settings().get("h2Connections")
                        .startsWith(resend.figure("connectionsOpened") + " opened"), resend.result().settings().toString()));
    }
}
