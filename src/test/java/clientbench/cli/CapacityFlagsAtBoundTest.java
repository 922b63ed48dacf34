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
        return probe(fork, rate, pass, 0.01, flags);
    }

    private static Capacity.Probe probe(int fork, double rate, boolean pass, double jitShare, String... flags) {
        return new Capacity.Probe(fork, rate, pass, pass ? "" : "flagged: ...", 2_000, 2_000, 500, 9_000, 12_000, 100, 50,
                10_000, 64, jitShare, 0, 0.3, List.of(flags));
    }

    @Test
    void theFlagsOnTheMissesAtEachForksBoundAreSaidSaturationsExcepted() {
        Capacity.Result r = new Capacity.Result("capacity-http1", "ahc",
                List.of(new Capacity.Fork(0, 3364, 4000, false, false, ""), new Capacity.Fork(1, 1000, 1044, false, false, "")),
                List.of(probe(0, 2000, false, "flag.lag", "flag.unsteady"), // a miss, but not at the bound
                        probe(0, 2000, true, "flag.steal"),                 // a pass: says nothing of the bound
                        probe(0, 4000, false, "flag.lag", "flag.stub"),
                        probe(0, 4000, false, "flag.stub"),
                        probe(1, 1044, false, "flag.lag", "flag.steal"),
                        probe(1, 1044, false, "flag.steal"),
                        probe(1, 4000, false, "flag.samples")));            // fork 1's 4000 is not its bound
        assertEquals(Set.of("stub", "steal"), r.flagsAtBound());
        assertEquals(1, r.forksFlaggedAtBound("steal"));
    }

    @Test
    void aMissAtTheBoundThatWasTheClientsMakesTheBoundTheClientsWhateverTheOtherMissThereWasFlagged() {
        // Run 20261124-012039-vm's vertx fork: 19027 req/s missed under 10% steal ("lag, steal"), and again without
        // it ("lag", saturation): the miss stood on the client's own. It was reported flagged steal, and run again.
        Capacity.Result vertx = new Capacity.Result("capacity-http1", "vertx",
                List.of(new Capacity.Fork(1, 16000, 19027, false, false, "")),
                List.of(probe(1, 19027, false, "flag.lag", "flag.steal"), probe(1, 19027, false, "flag.lag")));
        assertEquals(Set.of(), vertx.flagsAtBound());
        assertEquals(0, vertx.forksFlaggedAtBound("steal"), "not a search the host's steal stopped: no retry");
        // An unflagged miss likewise; a miss while the JIT compiled (probed again by the search) says nothing.
        Capacity.Result jdk = new Capacity.Result("capacity-http1", "jdk",
                List.of(new Capacity.Fork(0, 4000, 8000, false, false, ""), new Capacity.Fork(1, 4000, 8000, false, false, "")),
                List.of(probe(0, 8000, false, "flag.steal"), probe(0, 8000, false),
                        probe(1, 8000, false, 0.5), probe(1, 8000, false, "flag.stub"), probe(1, 8000, false, "flag.stub")));
        assertEquals(Set.of("stub"), jdk.flagsAtBound());
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
