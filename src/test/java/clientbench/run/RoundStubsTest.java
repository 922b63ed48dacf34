package clientbench.run;

import clientbench.harness.CpuLayout;
import clientbench.harness.StubProcess;
import clientbench.jvm.Jdk;
import clientbench.plan.Schedule;
import clientbench.plan.Shape;
import clientbench.testkit.Affinity;
import clientbench.testkit.Prerequisites;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The launcher's stubs: one for every step of a round, a new one for the next round or protocol, none left behind. */
@Timeout(90)
class RoundStubsTest {

    private static final List<String> FLAGS = List.of("-Dclientbench.pin=false", "-Dclientbench.hlog.dir=/tmp");

    @Test
    void aRoundsStepsShareItsStubAndTheNextRoundStartsItsOwn() throws Exception {
        Shape plain = Shape.open("plain").rate(1_000).rounds(2).build();
        Shape tls = Shape.open("tls").protocol("https1").rate(1_000).build();
        long first;
        long second;
        try (RoundStubs stubs = new RoundStubs(Jdk.current(), FLAGS, false)) {
            String a = stubs.forStep(new Schedule.Step(plain, "jdk", 1, 2));
            assertEquals(a, stubs.forStep(new Schedule.Step(plain, "okhttp", 1, 2)), "one stub for the round");
            first = pid(a);
            String b = stubs.forStep(new Schedule.Step(plain, "jdk", 2, 2));
            second = pid(b);
            assertNotEquals(first, second, "the next round's own");
            assertFalse(alive(first), "the last round's ended");
            String c = stubs.forStep(new Schedule.Step(tls, "jdk", 1, 1));
            assertTrue(c.contains(";true;"), "a TLS shape's stub serves TLS: " + c);
            assertFalse(alive(second));
            second = pid(c);
        }
        assertFalse(alive(second), "closing ends the stub it holds");
    }

    @Test
    void aStubTheUserNamesInTheForksFlagsOrATargetStartsNone() throws Exception {
        Schedule.Step step = new Schedule.Step(Shape.open("plain").rate(1_000).build(), "jdk", 1, 1);
        try (RoundStubs stubs = new RoundStubs(Jdk.current(), List.of("-Dclientbench.pin=false",
                "-Dclientbench.stub.shared=", "-Dclientbench.hlog.dir=/tmp"), false)) {
            assertNull(stubs.forStep(step), "the user's blank: each fork its own");
        }
        try (RoundStubs stubs = new RoundStubs(Jdk.current(), FLAGS, true)) {
            assertNull(stubs.forStep(step), "a target of the run's own");
        }
    }

    /** As the forks' flags say: pinned to the stub's CPUs by default, on every CPU with pinning off (taskset tells). */
    @Test
    void theRoundsStubIsPinnedAsTheForksAre() throws Exception {
        List<Integer> allowed = CpuLayout.allowedCpus();
        Prerequisites.require(StubProcess.taskset() != null, "taskset (util-linux) on PATH");
        Prerequisites.require(allowed.size() >= 2, "two CPUs: with one nothing is pinned");
        Schedule.Step step = new Schedule.Step(Shape.open("plain").rate(1_000).build(), "jdk", 1, 1);
        try (RoundStubs stubs = new RoundStubs(Jdk.current(), FLAGS, false)) {
            String d = stubs.forStep(step);
            assertEquals("", d.split(";", -1)[4], "no CPUs named: " + d);
            assertEquals(allowed, Affinity.of(pid(d)), "pinning off leaves it every CPU");
        }
        try (RoundStubs stubs = new RoundStubs(Jdk.current(), List.of("-Dclientbench.hlog.dir=/tmp"), false)) {
            String d = stubs.forStep(step);
            List<Integer> stubCpus = CpuLayout.plan(allowed, true).stubCpus();
            assertEquals(CpuLayout.format(stubCpus), d.split(";", -1)[4], d);
            assertEquals(stubCpus, Affinity.of(pid(d)), "pinned by default, as the forks are");
        }
    }

    private static long pid(String described) {
        return Long.parseLong(described.split(";")[2]);
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
