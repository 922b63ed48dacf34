package clientbench.harness.rule;

import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The one definition of "sustained": figures, then flags, with the harness's limits' one exception. */
class SloTest {

    private static final Slo SLO = Slo.DEFAULT;
    private static final Set<Flag> NONE = EnumSet.noneOf(Flag.class);

    @Test
    void keptAtTheBoundsAndMissedJustBeyond() {
        assertNull(SLO.missedBy(10_000, 9_990, 10_000, 0, NONE), "99.9% ok and p99 10 ms: kept");
        assertEquals("ok 99.89% of scheduled < 99.9%", SLO.missedBy(10_000, 9_989, 1_000, 0, NONE));
        assertEquals("latency p99 10.1 ms > 10 ms", SLO.missedBy(10_000, 10_000, 10_100, 0, NONE));
        assertNull(SLO.missedBy(10_000, 10_000, 109_000, 100, NONE), "the server's delay is not the client's");
        assertEquals("latency p99 111.0 ms > 100 + 10 ms", SLO.missedBy(10_000, 10_000, 111_000, 100, NONE));
        assertEquals("nothing scheduled", SLO.missedBy(0, 0, Double.NaN, 0, NONE));
    }

    @Test
    void tooFewSamplesNeverLetARateCountEitherWay() {
        assertEquals("flagged: samples", SLO.missedBy(10_000, 10_000, 1_000, 0, EnumSet.of(Flag.SAMPLES)));
        assertEquals("flagged: gen, lag, samples",
                SLO.missedBy(10_000, 10_000, 1_000, 0, EnumSet.of(Flag.GENERATOR, Flag.LAG, Flag.SAMPLES)));
        assertEquals("flagged: unsteady", SLO.missedBy(10_000, 5_000, 1_000, 0, EnumSet.of(Flag.UNSTEADY)));
    }

    @Test
    void aLimitOfTheHarnessDoesNotUndoAKeptRateButMakesAMissTheHarnesss() {
        // Each can only have added latency or unsent requests, and both are in the figures.
        for (Set<Flag> limits : List.of(EnumSet.of(Flag.LAG), EnumSet.of(Flag.GENERATOR), EnumSet.of(Flag.STUB),
                EnumSet.of(Flag.STEAL), EnumSet.of(Flag.GENERATOR, Flag.LAG, Flag.STUB, Flag.STEAL))) {
            assertNull(SLO.missedBy(10_000, 10_000, 5_000, 0, limits), "kept despite " + limits);
        }
        assertEquals("flagged: lag (latency p99 12.0 ms > 10 ms)", SLO.missedBy(10_000, 10_000, 12_000, 0, EnumSet.of(Flag.LAG)));
        assertEquals("flagged: gen, stub (ok 50.00% of scheduled < 99.9%)",
                SLO.missedBy(10_000, 5_000, 1_000, 0, EnumSet.of(Flag.GENERATOR, Flag.STUB)));
        assertEquals("flagged: steal (latency p99 12.0 ms > 10 ms)",
                SLO.missedBy(10_000, 10_000, 12_000, 0, EnumSet.of(Flag.STEAL)));
        assertEquals(EnumSet.complementOf(EnumSet.of(Flag.SAMPLES, Flag.UNSTEADY)), Slo.LIMITS);
    }

    @Test
    void badBoundsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Slo(0, 10));
        assertThrows(IllegalArgumentException.class, () -> new Slo(1.1, 10));
        assertThrows(IllegalArgumentException.class, () -> new Slo(0.999, 0));
    }
}
