package clientbench.harness;

import clientbench.testkit.Prerequisites;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stub, the pacer and the client get CPUs of their own where there are enough, and the pacer spins
 * only on a core of its own; the client's I/O thread budget follows the CPUs it gets.
 */
class CpuLayoutTest {

    @Test
    void fourOrMoreCpusGiveTheStubThePacerAndTheClientTheirOwnAndThePacerSpins() {
        Prerequisites.require(StubProcess.taskset() != null, "taskset is needed to pin (Debian: apt-get install util-linux)");
        CpuLayout l = CpuLayout.plan(List.of(0, 1, 2, 3, 4, 5), true);
        assertTrue(l.pinned());
        assertEquals(List.of(5), l.stubCpus());
        assertEquals(List.of(0), l.pacerCpus());
        assertEquals(List.of(1, 2, 3, 4), l.clientCpus());
        assertEquals(LoadSpec.Pacing.SPIN, l.pacing());
        assertEquals(4, l.ioThreads());
        assertEquals(5, l.jvmCpus());
    }

    @Test
    void twoOrThreeCpusPutThePacerWithTheClientAndItParks() {
        Prerequisites.require(StubProcess.taskset() != null, "taskset is needed to pin (Debian: apt-get install util-linux)");
        for (List<Integer> cpus : List.of(List.of(0, 1), List.of(4, 6, 7))) {
            CpuLayout l = CpuLayout.plan(cpus, true);
            assertEquals(List.of(cpus.get(cpus.size() - 1)), l.stubCpus());
            assertEquals(cpus.subList(0, cpus.size() - 1), l.clientCpus());
            assertTrue(l.pacerCpus().isEmpty());
            assertEquals(LoadSpec.Pacing.PARK, l.pacing(), "a spinning pacer would take the client's core");
            assertEquals(cpus.size() - 1, l.ioThreads());
        }
    }

    @Test
    void oneCpuOrPinningOffPinsNothingAndThePacerParks() {
        for (CpuLayout l : List.of(CpuLayout.plan(List.of(0), true), CpuLayout.plan(List.of(0, 1, 2, 3), false))) {
            assertFalse(l.pinned());
            assertEquals(LoadSpec.Pacing.PARK, l.pacing());
            assertEquals(l.clientCpus().size(), l.ioThreads());
        }
    }

    @Test
    void cpuListsReadAsTasksetWritesThem() {
        assertEquals(List.of(0, 1, 2, 5, 7, 8), CpuLayout.parseList("0-2,5,7-8"));
        assertEquals("0,1,2,5", CpuLayout.format(List.of(0, 1, 2, 5)));
        assertEquals(CpuLayout.allowedCpus().size(), Runtime.getRuntime().availableProcessors(),
                "this process's CPU list agrees with the JVM's count");
    }
}
