package clientbench.harness.rule;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When a fork's warm-up ends: scripted windows of a known JIT share and p50, judged as the settle loop judges them. */
class SteadinessTest {

    private static final long WINDOW = 2_000_000_000L;

    /** A figure that falls for 10 s and then holds: steady at the second window after it holds (14 s), never before. */
    @Test
    void aFigureThatSettlesAfterTenSecondsIsSteadyOnlyOnceItHolds() {
        Steadiness s = new Steadiness(0.03, 0.15, 40 * 1_000_000_000L);
        double[] p50 = {900_000, 2_000, 800, 400, 300, 200, 205, 190};
        double[] jit = {0.5, 0.4, 0.2, 0.02, 0.01, 0.01, 0.0, 0.0};
        int steadyAt = -1;
        for (int w = 0; w < p50.length && s.goOn(WINDOW); w++) {
            if (s.add(WINDOW, jit[w], p50[w], true)) {
                steadyAt = w + 1;
                break;
            }
        }
        assertEquals(7, steadyAt, "200 -> 205 us is the first pair within 15%, both quiet: the 7th window");
        Map<String, Object> json = s.toJson();
        assertEquals(true, json.get("steady"));
        assertEquals(14.0, json.get("seconds"));
    }

    @Test
    void aForkThatCompilesToItsBoundIsUnsteadyAndSaysWhy() {
        Steadiness s = new Steadiness(0.03, 0.15, 8 * 1_000_000_000L);
        int windows = 0;
        while (s.goOn(WINDOW)) {
            s.add(WINDOW, 0.2, 2_000, true);
            windows++;
        }
        assertEquals(4, windows, "8 s of 2 s windows");
        assertFalse(s.steady());
        String why = (String) s.toJson().get("why");
        assertTrue(why.contains("not steady within its bound of 8 s") && why.contains("JIT compiled for 20%"), why);
    }

    @Test
    void aBoundReachedOneWindowAfterTheLentCpusSaysSo() {
        Steadiness s = new Steadiness(0.03, 0.15, 6 * 1_000_000_000L);
        s.add(WINDOW, 0.4, 900, false);
        s.add(WINDOW, 0.02, 700, false);
        s.add(WINDOW, 0.0, 300, true);
        assertFalse(s.goOn(WINDOW));
        String why = (String) s.toJson().get("why");
        assertTrue(why.contains("one warm-up window since the compilers gave back their lent CPUs"), why);
    }

    @Test
    void aLatencyThatKeepsMovingIsUnsteadyThoughTheJitIsQuiet() {
        Steadiness s = new Steadiness(0.03, 0.15, 10 * 1_000_000_000L);
        double[] p50 = {1_000, 300, 2_000, 250, 1_500};
        for (double p : p50) {
            s.add(WINDOW, 0.0, p, true);
        }
        assertFalse(s.goOn(WINDOW));
        String why = (String) s.toJson().get("why");
        assertTrue(why.contains("latency p50 moved 500%"), why);
    }

    /** Windows whose compilers had every CPU are neither judged nor the base of a comparison. */
    @Test
    void aWindowWithLentCpusIsNeverTheFirstOfTheSteadyPair() {
        Steadiness s = new Steadiness(0.03, 0.15, 40 * 1_000_000_000L);
        assertFalse(s.add(WINDOW, 0.5, 500, false));
        assertFalse(s.add(WINDOW, 0.01, 200, false), "lent: not judged");
        assertFalse(s.add(WINDOW, 0.01, 200, true), "its predecessor ran with lent CPUs");
        assertTrue(s.add(WINDOW, 0.01, 210, true));
        assertEquals(4, s.toJson().get("windows"));
    }

    /** A JIT share that was not read is never taken as quiet: the record would claim a share it never measured. */
    @Test
    void aJitShareNotMeasuredIsNeverQuiet() {
        Steadiness s = new Steadiness(0.03, 0.15, 40 * 1_000_000_000L);
        assertFalse(s.add(WINDOW, -1, 100, true));
        assertFalse(s.add(WINDOW, Double.NaN, 101, true), "latency held, but the JIT was not measured");
        assertEquals("the JIT's share of the last warm-up window was not measured (steady: read, and under 3%)",
                s.toJson().get("why").toString().replaceFirst("^not steady within its bound of 40 s: ", ""));
        assertFalse(s.add(WINDOW, 0.01, 102, true), "the window before this one was not measured");
        assertEquals("the JIT's share of the window before the last was not measured",
                s.toJson().get("why").toString().replaceFirst("^not steady within its bound of 40 s: ", ""));
        assertTrue(s.add(WINDOW, 0.01, 103, true), "two measured quiet windows, p50 within 15%");
        assertEquals("the JIT under 3% of two windows in a row, latency p50 within 15% between them", s.toJson().get("why"));
    }
}
