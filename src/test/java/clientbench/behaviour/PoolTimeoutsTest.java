package clientbench.behaviour;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The slots the case counts, set beside counts kept elsewhere: a client of known habits with a pool of 5 that frees a
 * timed-out request's slot serves 5 after the timeouts, and one that loses it serves none, each of its requests
 * written once (the stub's reads match the client's own count of timeouts). Reactor Netty's pool as it ships,
 * 2 x max(cores, 8) connections, serves them all again after its own timeouts and after the suite's.
 */
@Timeout(90)
class PoolTimeoutsTest {

    private static final int POOL = 5;

    @Test
    void aPoolThatLosesTimedOutSlotsServesNoneAndOneThatFreesThemServesAll() throws Exception {
        Future<Ran> freeing;
        Future<Ran> losing;
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            freeing = threads.submit(() -> run(KnownClient.Knobs.plain().limitedTo(POOL)));
            losing = threads.submit(() -> run(KnownClient.Knobs.plain().limitedTo(POOL).leaking()));
        }
        Ran ok = freeing.get();
        Ran lost = losing.get();
        assertAll("freeing " + ok.figures + "; losing " + lost.figures,
                () -> assertEquals(POOL, ok.number("slotsBefore"), "the stub held the pool's 5 at once"),
                () -> assertEquals(ok.client.timeouts.get(), ok.number("stubRead"), "each timed-out request read once"),
                () -> assertEquals(POOL, ok.number("slotsAfter")),
                () -> assertEquals(Map.of("ok", POOL), ok.figures.get("afterOutcomes")),
                () -> assertEquals(0, ok.number("deadConnectionsLeft")),
                () -> assertEquals(POOL, lost.number("slotsBefore")),
                () -> assertEquals(lost.client.timeouts.get(), lost.number("stubRead")),
                () -> assertEquals(Math.max(0, POOL - lost.client.timeouts.get()), lost.number("slotsAfter"),
                        "every slot a timeout lost is one the stub no longer sees held"),
                () -> assertEquals(Map.of("timeout", POOL), lost.figures.get("afterOutcomes")),
                () -> assertEquals(lost.client.leaked.size(), lost.number("deadConnectionsLeft"),
                        "the sockets it left open still carry their requests"));
    }

    @Test
    void reactorNettysPoolServesEverySlotAgainAfterItsOwnTimeoutsAndTheSuites() throws Exception {
        Future<CaseResult> own;
        Future<CaseResult> suite;
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            own = threads.submit(() -> BehaviourProbe.one("reactor", 1, new PoolTimeouts()));
            suite = threads.submit(() -> BehaviourProbe.one("reactor", 1, PoolTimeouts.suite()));
        }
        int slots = 2 * Math.max(Runtime.getRuntime().availableProcessors(), 8); // ConnectionProvider's default
        for (CaseResult r : List.of(own.get(), suite.get())) {
            assertNull(r.failure(), r.toString());
            Map<String, Object> f = r.figures();
            assertAll(r.tuning() + ": " + f,
                    () -> assertEquals(slots, ((Number) f.get("slotsBefore")).intValue(), "the library's pool, full"),
                    () -> assertEquals(slots, ((Number) f.get("slotsAfter")).intValue()),
                    () -> assertEquals(Map.of("ok", slots), f.get("afterOutcomes")));
        }
    }

    private record Ran(KnownClient client, Map<String, Object> figures) {
        int number(String name) {
            return ((Number) figures.get(name)).intValue();
        }
    }

    private static Ran run(KnownClient.Knobs knobs) {
        List<KnownClient> built = new ArrayList<>();
        PoolTimeouts theCase = new PoolTimeouts();
        CaseResult r = BehaviourProbe.one(new CaseContext("known", theCase, 1, (name, config) -> {
            KnownClient k = new KnownClient(config, knobs);
            built.add(k);
            return k;
        }), theCase);
        assertNull(r.failure(), r.toString());
        return new Ran(built.get(0), r.figures());
    }
}
