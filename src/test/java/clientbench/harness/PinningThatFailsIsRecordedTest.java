package clientbench.harness;

import clientbench.testkit.Prerequisites;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the layout planned and what the kernel did can differ: a taskset that fails, a pacer whose thread id cannot be
 * read, a timer slack prctl refused. Each is a fact in the trial's record, never "pinned: true" or "the default (null)".
 */
class PinningThatFailsIsRecordedTest {

    @TempDir
    Path dir;

    /** CPUs this machine does not have: the kernel refuses the mask, and this JVM's own stays as it was. */
    @Test
    void aTasksetTheKernelRefusesRecordsTheClientAsNotPinned() throws Exception {
        Prerequisites.require(StubProcess.taskset() != null, "taskset");
        String before = allowedByTheKernel();
        CpuLayout l = new CpuLayout(true, List.of(4093), List.of(4094), List.of(4095), LoadSpec.Pacing.SPIN);
        Map<String, Object> facts = l.pinClientAndPacer();
        assertEquals(before, allowedByTheKernel(), "the kernel left this JVM where it was");
        assertEquals(false, facts.get("pinned"), facts.toString());
        assertTrue(facts.get("pinFailure").toString().contains(" -c 4094 "), facts.toString());
        assertEquals(facts.get("pinFailure"), l.pinClient());
    }

    @Test
    void aPacerWhoseThreadIdCannotBeReadIsRecordedAsUnpinned() throws Exception {
        Prerequisites.require(StubProcess.taskset() != null, "taskset");
        List<Integer> mine = CpuLayout.allowedCpus(); // pinning the client to them changes nothing
        String before = allowedByTheKernel();
        CpuLayout l = new CpuLayout(true, List.of(mine.get(mine.size() - 1)), mine, List.of(mine.get(0)),
                LoadSpec.Pacing.SPIN);
        Map<String, Object> facts = l.pinClientAndPacer(dir.resolve("no-thread-self"));
        assertEquals(before, allowedByTheKernel());
        assertEquals(false, facts.get("pacerPinned"), facts.toString());
        assertEquals("the pacer's thread id could not be read from " + dir.resolve("no-thread-self")
                + ": it runs on the client's CPUs", facts.get("pacerPinFailure"));
        assertEquals(null, facts.get("pinned"), "the client was pinned");
    }

    @Test
    void aTimerSlackNotSetSaysWhy() {
        assertEquals(1L, Pacer.timerSlackFact(1, null));
        assertEquals("failed: prctl(PR_SET_TIMERSLACK) returned an error; the thread's slack is as it was (50 us by"
                + " default)", Pacer.timerSlackFact(-1, null));
        assertEquals("the default (50 us): the FFM API is not usable here (x)",
                Pacer.timerSlackFact(-1, "the FFM API is not usable here (x)"));
    }

    private static String allowedByTheKernel() throws Exception {
        return Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(line -> line.startsWith("Cpus_allowed_list:")).findFirst().orElseThrow();
    }
}
