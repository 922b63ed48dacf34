package clientbench.behaviour;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real clients with responses forgotten, set beside the stub's counts: Apache's classic client ships a pool of 5 per
 * route, so the stub reads 5 of the requests and holds those 5 connections, before and after a collection (nothing in
 * the client frees a lease whose response was dropped), and the ordinary requests then never reach it; the JDK has no
 * limit, so the stub reads all 70 on 70 connections, which the JDK still holds after a collection, while the ordinary
 * requests pass.
 */
@Timeout(60)
class UnclosedBodyTest {

    /** PoolingHttpClientConnectionManager's default max per route, which the classic client keeps. */
    private static final int APACHE_MAX_PER_ROUTE = 5;

    @Test
    void apachesPoolOfFiveStaysHeldAndTheJdkHoldsOneConnectionPerBodyLeftOpen() throws Exception {
        Future<CaseResult> apache;
        Future<CaseResult> jdk;
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            apache = threads.submit(() -> BehaviourProbe.one("apache-vt", 1, new UnclosedBody()));
            jdk = threads.submit(() -> BehaviourProbe.one("jdk", 1, new UnclosedBody()));
        }
        Map<String, Object> a = figures(apache.get());
        Map<String, Object> j = figures(jdk.get());
        int n = UnclosedBody.LEFT_OPEN;
        int after = UnclosedBody.AFTER;
        assertTrue(n > APACHE_MAX_PER_ROUTE);
        assertAll("apache-vt " + a + " / jdk " + j,
                () -> assertEquals(APACHE_MAX_PER_ROUTE, number(a, "leftOpenStubReads"), "the stub read one a slot"),
                () -> assertEquals(APACHE_MAX_PER_ROUTE, number(a, "heldOpen"), "and holds each slot's connection"),
                () -> assertEquals(APACHE_MAX_PER_ROUTE, number(a, "heldAfterCollection"), "held still"),
                () -> assertEquals(Map.of("ok", APACHE_MAX_PER_ROUTE, "unreported", n - APACHE_MAX_PER_ROUTE),
                        a.get("leftOpenOutcomes"), "the rest wait for a slot"),
                () -> assertEquals(0, number(a, "afterStubReads"), "no ordinary request reached the stub"),
                () -> assertEquals(Map.of("unreported", after), a.get("afterOutcomes")),
                () -> assertEquals(n, number(j, "leftOpenStubReads")),
                () -> assertEquals(n, number(j, "heldOpen"), "one connection held per body left open"),
                () -> assertEquals(n, number(j, "heldAfterCollection"), "and still, once the responses are collected"),
                () -> assertEquals(Map.of("ok", n), j.get("leftOpenOutcomes")),
                () -> assertEquals(after, number(j, "afterStubReads")),
                () -> assertEquals(Map.of("ok", after), j.get("afterOutcomes")));
    }

    /**
     * Through its adapter, Helidon's forgotten responses hold their connections only until they are collected (a
     * collection the JVM makes sooner comes first) and none after it, as with Helidon alone (HelidonAloneTest): the
     * adapter keeps no socket of its own reachable.
     */
    @Test
    void helidonsConnectionsOfForgottenResponsesCloseOnceCollected() throws Exception {
        Map<String, Object> h = figures(BehaviourProbe.one("helidon", 1, new UnclosedBody()));
        int n = UnclosedBody.LEFT_OPEN;
        assertAll("helidon " + h,
                () -> assertEquals(n, number(h, "leftOpenStubReads")),
                () -> assertEquals(0, number(h, "heldAfterCollection"), "none once the responses are collected"),
                () -> assertEquals(Map.of("ok", UnclosedBody.AFTER), h.get("afterOutcomes")));
    }

    private static Map<String, Object> figures(CaseResult r) {
        assertNull(r.failure(), r.toString());
        assertEquals("library-limits", r.tuning());
        return r.figures();
    }

    private static int number(Map<String, Object> m, String name) {
        return ((Number) m.get(name)).intValue();
    }
}
