package clientbench.behaviour;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each case's figures against the counts of a client whose habits are known ({@link KnownClient}): what the case says
 * the client did (resent, timed out, left open, held, made wait) is what the client itself counted. The scenarios run
 * side by side, as the cases do in a behaviour run, each on stubs of its own.
 */
@Timeout(120)
class CaseFiguresMatchTheClientsOwnCountsTest {

    /** One case run with one client of known habits: the client as the case built it, and the case's result. */
    private record Ran(KnownClient client, CaseResult result) {
        Map<String, Object> figures() {
            assertNull(result.failure(), "the case failed: " + result.failure());
            assertNotNull(result.figures(), "no figures: " + result);
            return result.figures();
        }

        int figure(String name) {
            return ((Number) figures().get(name)).intValue();
        }

        @SuppressWarnings("unchecked")
        int count(String map, String outcome) {
            return ((Map<String, Number>) figures().get(map)).getOrDefault(outcome, 0).intValue();
        }
    }

    private static final Map<String, Ran> RAN = new LinkedHashMap<>();

    @BeforeAll
    static void runEveryScenario() throws Exception {
        Map<String, Object[]> scenarios = new LinkedHashMap<>();
        KnownClient.Knobs plain = KnownClient.Knobs.plain();
        scenarios.put("race, resending", new Object[] {new StaleConnection("race"), plain.resending()});
        scenarios.put("race, sending once", new Object[] {new StaleConnection("race"), plain});
        scenarios.put("fin, sending once", new Object[] {new StaleConnection("fin"), plain});
        scenarios.put("closed at once, resending", new Object[] {new ClosedAtOnce(), plain.resending()});
        scenarios.put("closed at once, sending once", new Object[] {new ClosedAtOnce(), plain});
        scenarios.put("closed at once, a connection a request", new Object[] {new ClosedAtOnce(),
                plain.closingAfterEachAnswer()});
        scenarios.put("closed, seen, sending once", new Object[] {StaleConnection.closedAtOnceSeen(), plain});
        scenarios.put("closed, seen, checking", new Object[] {StaleConnection.closedAtOnceSeen(), plain.checkingBeforeReuse()});
        scenarios.put("stall, deadline over the body", new Object[] {new Deadline("stall"), plain});
        scenarios.put("stall, deadline to the head", new Object[] {new Deadline("stall"), plain.headersOnlyDeadline()});
        scenarios.put("trickle, total deadline", new Object[] {new Deadline("trickle"), plain});
        scenarios.put("trickle, per-read deadline", new Object[] {new Deadline("trickle"), plain.perReadDeadline()});
        scenarios.put("timeouts, leaking", new Object[] {new TimeoutLeaks(), plain.limitedTo(64).leaking()});
        scenarios.put("reuse", new Object[] {new ConnectionReuse(), plain});
        scenarios.put("reuse, dropping unread bodies", new Object[] {new ConnectionReuse(), plain.droppingUnread()});
        scenarios.put("pool of 5", new Object[] {new DefaultPoolLimits(), plain.limitedTo(5)});
        scenarios.put("slow host, one shared limit", new Object[] {new SlowHost(), plain.limitedTo(5)});
        scenarios.put("slow host, no limit", new Object[] {new SlowHost(), plain});
        scenarios.put("slow host, 5 a host and 64 in all", new Object[] {new SlowHost(), plain.perHostLimitedTo(5).limitedTo(64)});
        scenarios.put("slow host, 5 a host only", new Object[] {new SlowHost(), plain.perHostLimitedTo(5)});
        scenarios.put("h2", new Object[] {new Http2GoAway(), plain});
        scenarios.put("bodies left open", new Object[] {new UnclosedBody(), plain});
        scenarios.put("bodies left open, 5 at once", new Object[] {new UnclosedBody(), plain.limitedTo(5)});
        scenarios.put("bodies left open, reclaimed", new Object[] {new UnclosedBody(), plain.reclaimingOnCollection()});
        Map<String, Future<Ran>> running = new LinkedHashMap<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            scenarios.forEach((name, s) -> running.put(name, threads.submit(() -> run((BehaviourCase) s[0], (KnownClient.Knobs) s[1]))));
        }
        for (Map.Entry<String, Future<Ran>> e : running.entrySet()) {
            RAN.put(e.getKey(), e.getValue().get());
        }
    }

    private static Ran run(BehaviourCase theCase, KnownClient.Knobs knobs) {
        List<KnownClient> built = new ArrayList<>();
        CaseResult r = BehaviourProbe.one(new CaseContext("known", theCase, 1, (name, config) -> {
            KnownClient c = new KnownClient(config, knobs);
            built.add(c);
            return c;
        }), theCase);
        return new Ran(built.isEmpty() ? null : built.get(0), r);
    }

    @Test
    void aPostResentOnAFreshConnectionIsCountedAsSentTwice() {
        Ran r = RAN.get("race, resending");
        assertAll(r.figures().toString(),
                () -> assertEquals(StaleConnection.ROUNDS, r.count("posts", "ok"), "every POST ok, once resent"),
                () -> assertEquals(StaleConnection.ROUNDS, r.figure("postSentTwice")),
                () -> assertEquals(StaleConnection.ROUNDS, r.figure("postRaceClosed"), "each POST met the race"),
                // Every request the race closed under (a busy machine can delay one that only leaves an idle
                // connection behind past the idle time too): each one the client lost, and sent again.
                () -> assertEquals(r.client().closedBeforeAnswer.get(), r.figure("closedByServer")),
                () -> assertEquals(r.client().resends.get(), r.figure("closedByServer")));
    }

    /**
     * The close seen before the send: a client that checks nothing sends every probe on the closed connection, and the
     * stub sees each come after its FIN; one that polls an idle socket before reuse drops each closed one and sends none.
     */
    @Test
    void aRequestSentOnAConnectionWhoseCloseHadArrivedIsCountedAndOneCheckedIsNot() {
        Ran blind = RAN.get("closed, seen, sending once");
        Ran checking = RAN.get("closed, seen, checking");
        int probes = 2 * StaleConnection.SEEN_ROUNDS;
        assertAll(blind.figures() + " / " + checking.figures(),
                () -> assertEquals(probes, blind.figure("closeSeenBeforeSend"), "the stub proved each close before its send"),
                () -> assertEquals(blind.client().closedBeforeAnswer.get(), blind.figure("postSentOnClosed")
                        + blind.figure("getSentOnClosed"), "sent on a closed connection = the client's own losses"),
                () -> assertEquals(probes, blind.client().closedBeforeAnswer.get()),
                () -> assertEquals(StaleConnection.SEEN_ROUNDS, blind.count("posts", "reset")),
                () -> assertEquals(0, blind.figure("postReads"), "none processed"),
                () -> assertEquals(probes, checking.figure("closeSeenBeforeSend")),
                () -> assertEquals(probes, checking.client().staleDropped.get(), "each closed socket found and dropped"),
                () -> assertEquals(0, checking.figure("postSentOnClosed") + checking.figure("getSentOnClosed")),
                () -> assertEquals(StaleConnection.SEEN_ROUNDS, checking.count("posts", "ok")),
                () -> assertEquals(StaleConnection.SEEN_ROUNDS, checking.count("gets", "ok")));
    }

    @Test
    void aPostSentOnceFailsAndIsNeverCountedTwice() {
        for (String scenario : new String[] {"race, sending once", "fin, sending once"}) {
            Ran r = RAN.get(scenario);
            assertAll(scenario + ": " + r.figures(),
                    () -> assertEquals(0, r.client().resends.get()),
                    () -> assertEquals(0, r.figure("postSentTwice")),
                    () -> assertEquals(StaleConnection.ROUNDS, r.count("posts", "reset"),
                            "no stale check and no resend: each POST on a closed connection fails"));
        }
    }

    @Test
    void aConnectionClosedAtOnceFailsTheNextRequestUnlessTheClientResends() {
        Ran once = RAN.get("closed at once, sending once");
        Ran resend = RAN.get("closed at once, resending");
        int failed = once.count("posts", "reset") + once.count("gets", "reset");
        assertAll(once.figures() + " / " + resend.figures(),
                () -> assertTrue(failed > 0, "a client that checks nothing meets a closed connection"),
                () -> assertEquals(once.count("posts", "ok"), once.figure("postReads"), "the stub read each POST that passed"),
                () -> assertEquals(once.count("gets", "ok"), once.figure("getReads"), "and no request that failed"),
                () -> assertEquals(0, once.figure("postSentTwice")),
                () -> assertEquals(ClosedAtOnce.ROUNDS, resend.count("posts", "ok"), "resent on a fresh connection"),
                () -> assertEquals(ClosedAtOnce.ROUNDS, resend.count("gets", "ok")),
                () -> assertTrue(resend.client().resends.get() > 0, "the client met closed connections"),
                () -> assertEquals(ClosedAtOnce.ROUNDS, resend.figure("postReads"),
                        "a request refused on a closed connection was never read: each read once"),
                () -> assertEquals(resend.client().resends.get(), resend.figure("postSentTwice")
                        + resend.figure("getSentTwice"), "each resend after a send the stub refused: sent twice"),
                () -> assertEquals(resend.client().resends.get(), resend.figure("postSentOnClosed")
                        + resend.figure("getSentOnClosed")),
                () -> assertEquals(once.client().closedBeforeAnswer.get(), once.figure("postSentOnClosed")
                        + once.figure("getSentOnClosed"), "each loss of the client's: a send that came after the FIN"));
    }

    /**
     * The case goes on past its rounds while a kind of request has not met the close: a client that never reuses a
     * connection meets it with neither, one that sends once meets it with every POST and never with a GET (the POST's
     * failure leaves it a new connection); a client that resends meets it with both and stops at its rounds. About 2 s
     * for the first 500 rounds here: the 20 s bound on the case leaves room on a busy machine.
     */
    @Test
    void closedAtOnceGoesOnWhileAKindOfRequestHasNotMetTheClose() {
        Ran fresh = RAN.get("closed at once, a connection a request");
        Ran once = RAN.get("closed at once, sending once");
        Ran resend = RAN.get("closed at once, resending");
        int rounds = fresh.figure("rounds");
        assertAll(fresh.figures() + " / " + once.figures() + " / " + resend.figures(),
                () -> assertEquals(0, fresh.client().closedBeforeAnswer.get() + fresh.client().resends.get(),
                        "the premise: it never met the close"),
                () -> assertTrue(rounds > ClosedAtOnce.ROUNDS, "went on past its rounds: " + rounds),
                () -> assertEquals(fresh.count("warmUp", "ok") + 1 + 2 * rounds, fresh.client().connects.get(),
                        "each request a connection of the client's: the warm-up, the habit's GET, two a round"),
                () -> assertEquals(rounds, fresh.count("posts", "ok")),
                () -> assertEquals(once.figure("rounds"), once.client().closedBeforeAnswer.get(),
                        "the premise: every POST and no GET met the close"),
                () -> assertTrue(once.figure("rounds") > ClosedAtOnce.ROUNDS, "went on for its GETs"),
                () -> assertEquals(ClosedAtOnce.ROUNDS, resend.figure("rounds"), "both met it: no round more"));
    }

    @Test
    void aDeadlineIsCountedAsFiredOnlyWhenTheClientFiredIt() {
        Ran body = RAN.get("stall, deadline over the body");
        Ran head = RAN.get("stall, deadline to the head");
        assertAll(body.figures() + " / " + head.figures(),
                () -> assertEquals(Deadline.REQUESTS, body.figure("fired")),
                // The client counts the warm-up too: a cold first request can outlast the 1 s timeout on a busy machine.
                () -> assertEquals(body.client().timeouts.get() - body.count("warmUp", "timeout"),
                        body.count("outcomes", "timeout")),
                () -> assertEquals(0, head.figure("fired"), "a deadline that ends at the head never fires on a body"),
                () -> assertEquals(Deadline.REQUESTS + head.count("warmUp", "ok"), head.client().bodiesWithoutDeadline.get(),
                        "the client read every stalled body without a deadline (and the warm-up's, when it came)"));
    }

    @Test
    void theTrickleOutlastsATotalTimeoutButNeverAPerReadOne() {
        Ran total = RAN.get("trickle, total deadline");
        Ran perRead = RAN.get("trickle, per-read deadline");
        assertAll(total.figures() + " / " + perRead.figures(),
                () -> assertEquals("total", total.figures().get("timeoutKind"), "the kind, from the client's settings"),
                () -> assertEquals(Deadline.REQUESTS, total.figure("fired")),
                () -> assertEquals(Deadline.REQUESTS + total.count("warmUp", "timeout"), total.client().timeouts.get(),
                        "the client's own count, the warm-up's included"),
                () -> assertEquals("per-read", perRead.figures().get("timeoutKind")),
                () -> assertEquals(0, perRead.figure("fired"), "a byte every " + Deadline.TRICKLE_MS + " ms resets it"),
                () -> assertEquals(perRead.count("warmUp", "timeout"), perRead.client().timeouts.get()),
                () -> assertEquals(Deadline.REQUESTS, perRead.figure("stubStillAnswering"),
                        "the stub still trickling every body at the end of the wait"));
    }

    @Test
    void deadConnectionsAndLostSlotsAreWhatTheClientLeft() {
        Ran r = RAN.get("timeouts, leaking");
        assertAll(r.figures().toString(),
                () -> assertTrue(r.client().leaked.size() > 0, "the client left sockets open"),
                () -> assertEquals(r.client().leaked.size(), r.figure("deadConnectionsLeft")),
                () -> assertEquals(TimeoutLeaks.AFTER, r.count("afterOutcomes", "timeout"),
                        "every slot lost: the ordinary requests wait past their timeout"));
    }

    @Test
    void connectionsOpenedAreTheClientsConnects() {
        Ran r = RAN.get("reuse");
        assertEquals(r.client().connects.get(), r.figure("connectionsOpened"), r.figures().toString());
    }

    @Test
    void aClientThatDropsAConnectionWithAnUnreadBodyOpensOneForEach() {
        Ran keeps = RAN.get("reuse");
        Ran drops = RAN.get("reuse, dropping unread bodies");
        assertAll(keeps.figures() + " / " + drops.figures(),
                () -> assertEquals(0, keeps.client().unreadDropped.get()),
                () -> assertTrue(keeps.figure("connectionsPer1000") <= 1_000 / ConnectionReuse.CLOSE_EVERY + 10,
                        "one per " + ConnectionReuse.CLOSE_EVERY + " answers, and the warm-up's"),
                () -> assertEquals(ConnectionReuse.REQUESTS / 2, drops.client().unreadDropped.get(),
                        "the case leaves every other body unread"),
                () -> assertEquals(drops.client().connects.get(), drops.figure("connectionsOpened")),
                () -> assertTrue(drops.figure("connectionsOpened") > drops.client().unreadDropped.get(),
                        "a connection for each body dropped, and those the server closed"));
    }

    /**
     * What the leak holds is what the client still holds: all 70 without a limit, the 5 slots of a pool of 5, before
     * and after the collection; a client that frees a body once its response is collected holds none after.
     */
    @Test
    void theConnectionsHeldAreTheBodiesTheClientStillHolds() {
        Ran free = RAN.get("bodies left open");
        Ran five = RAN.get("bodies left open, 5 at once");
        Ran reclaiming = RAN.get("bodies left open, reclaimed");
        assertAll(free.figures() + " / " + five.figures() + " / " + reclaiming.figures(),
                () -> assertEquals(UnclosedBody.LEFT_OPEN, free.client().leftOpen.size()),
                () -> assertEquals(free.client().leftOpen.size(), free.figure("heldOpen")),
                () -> assertEquals(free.client().leftOpen.size(), free.figure("heldAfterCollection")),
                () -> assertEquals(UnclosedBody.AFTER, free.count("afterOutcomes", "ok"), "no limit: they pass"),
                () -> assertEquals(5, five.client().leftOpen.size(), "each body left open keeps its slot"),
                () -> assertEquals(five.client().leftOpen.size(), five.figure("heldOpen")),
                () -> assertEquals(five.client().leftOpen.size(), five.figure("heldAfterCollection")),
                () -> assertEquals(five.client().leftOpen.size(), five.figure("leftOpenStubReads")),
                () -> assertEquals(UnclosedBody.AFTER, five.count("afterOutcomes", "unreported"),
                        "every slot held: the ordinary requests wait"),
                () -> assertEquals(0, reclaiming.client().leftOpen.size(), "every body freed once collected"),
                () -> assertEquals(reclaiming.client().leftOpen.size(), reclaiming.figure("heldAfterCollection")),
                () -> assertEquals(reclaiming.client().reclaimed.get(), reclaiming.figure("leftOpenStubReads"),
                        "each body the stub sent, freed by the client"),
                () -> assertEquals(UnclosedBody.LEFT_OPEN, reclaiming.client().reclaimed.get()),
                () -> assertEquals(UnclosedBody.AFTER, reclaiming.count("afterOutcomes", "ok")));
    }

    @Test
    void heldAtOnceIsTheClientsLimit() {
        assertEquals(5, RAN.get("pool of 5").figure("heldAtOnce"));
    }

    @Test
    void fastRequestsWaitForTheSlowHostOnlyBehindAnotherHostsLimit() {
        assertEquals(SlowHost.FAST_REQUESTS, RAN.get("slow host, one shared limit").figure("fastAfterASlowAnswer"));
        assertEquals(0, RAN.get("slow host, no limit").figure("fastAfterASlowAnswer"));
    }

    @Test
    void slowHostsFillATotalLimitThatPerHostLimitsSitBelow() {
        Ran shared = RAN.get("slow host, 5 a host and 64 in all");
        Ran perHost = RAN.get("slow host, 5 a host only");
        assertAll(shared.figures() + " / " + perHost.figures(),
                () -> assertEquals(SlowHost.FAST_REQUESTS, shared.figure("fastAfterASlowAnswer"),
                        "64 in all, every one taken by a slow host: the fast host waits"),
                () -> assertEquals(64, shared.figure("slowHeldAtOnce"), "the slow hosts held the client's total"),
                () -> assertEquals(0, perHost.figure("fastAfterASlowAnswer")),
                () -> assertEquals(5 * SlowHost.SLOW_HOSTS, perHost.figure("slowHeldAtOnce"),
                        "each slow host held at the client's 5"));
    }

    @Test
    void aClientWithoutHttp2IsNotApplicableWithItsReason() {
        CaseResult r = RAN.get("h2").result();
        assertNull(r.figures());
        assertNull(r.failure());
        assertTrue(r.notApplicable().contains("h2c refused"), r.notApplicable());
    }
}
