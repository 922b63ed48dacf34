package clientbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What the terminal says stopped a knee search: the flags, other than saturation's gen and lag, on the misses at
 * each fork's lowest failing rate. The probes below are two forks of run 20261123-235201-vm (aborted: the host
 * stole 20-55% of the CPU), abridged.
 */
class CapacityFlagsAtBoundTest {

    private static Capacity.Probe probe(int fork, double rate, boolean pass, String... flags) {
        return new Capacity.Probe(fork, rate, pass, pass ? "" : "flagged: ...", 2_000, 2_000, 500, 9_000, 12_000, 100, 50,
                10_000, 64, 0.01, 0, 0.3, List.of(flags));
    }

    @Test
    void theFlagsOnTheMissesAtEachForksBoundAreSaidSaturationsExcepted() {
        Capacity.Result r = new Capacity.Result("capacity-http1", "ahc",
                List.of(new Capacity.Fork(0, 3364, 4000, false, false, ""), new Capacity.Fork(1, 1000, 1044, false, false, "")),
                List.of(probe(0, 2000, false, "flag.lag", "flag.unsteady"), // a miss, but not at the bound
                        probe(0, 2000, true, "flag.steal"),                 // a pass: says nothing of the bound
                        probe(0, 4000, false, "flag.generator", "flag.lag"),
                        probe(0, 4000, false, "flag.lag", "flag.stub"),
                        probe(1, 1044, false, "flag.lag", "flag.steal"),
                        probe(1, 4000, false, "flag.samples")));            // fork 1's 4000 is not its bound
        assertEquals(Set.of("stub", "steal"), r.flagsAtBound());
    }

    @Test
    void saturationAloneOrNoFailureSaysNothing() {
        Capacity.Result saturated = new Capacity.Result("capacity-http1", "vertx",
                List.of(new Capacity.Fork(0, 15322, 16000, true, false, "")),
                List.of(probe(0, 16000, false, "flag.generator", "flag.lag"), probe(0, 16000, false, "flag.lag")));
        assertEquals(Set.of(), saturated.flagsAtBound());
        Capacity.Result ceiling = new Capacity.Result("capacity-http1", "ahc",
                List.of(new Capacity.Fork(0, 64000, Double.NaN, false, false, "")),
                List.of(probe(0, 64000, true, "flag.steal")));
        assertEquals(Set.of(), ceiling.flagsAtBound());
    }

    @Test
    void aForkWithNoFailingRateBelowTheCeilingIsOpen() {
        assertTrue(Capacity.open(4000, Double.NaN, 64000), "the budget ran out before a miss stood");
        assertFalse(Capacity.open(64000, Double.NaN, 64000), "the ceiling kept: a knee at the harness's limit");
        assertFalse(Capacity.open(4000, 4400, 64000), "a failing rate bounds it");
        assertTrue(Capacity.open(0, Double.NaN, 64000), "nothing passed, nothing failed");
        Capacity.Result r = new Capacity.Result("capacity-http1", "jdk",
                List.of(new Capacity.Fork(0, 2000, 2200, false, false, ""), new Capacity.Fork(1, 4000, Double.NaN, false, true, "")),
                List.of());
        assertTrue(r.anyOpen());
        String table = Summary.table(List.of(), List.of(), List.of(r));
        assertTrue(java.util.regex.Pattern.compile("(?m)^capacity-http1 +jdk +3000 +2000-4000 \\(2\\) +open +- +-$")
                .matcher(table).find(), table);
    }
}
