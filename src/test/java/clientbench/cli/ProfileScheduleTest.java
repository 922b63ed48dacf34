package clientbench.cli;

import clientbench.adapters.Adapters;
import clientbench.jvm.Jdk;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The order of a comparison's JMH runs (Profile.schedule): a knee search's forks run apart, one at its place and
 * the next after every other shape, clients reversed; every other shape once, with its own forks.
 */
class ProfileScheduleTest {

    private static final List<String> CLIENTS = List.of("jdk", "okhttp", "apache");

    private static List<String> names(List<Profile.Step> steps, String shape, int pass) {
        List<String> out = new ArrayList<>();
        for (Profile.Step s : steps) {
            if (s.shape().name().equals(shape) && s.pass() == pass) {
                out.add(s.client());
            }
        }
        return out;
    }

    @Test
    void theStandardKneeSearchRunsItsSecondForkAfterEveryOtherShapeClientsReversed() {
        Profile p = Profile.named("standard");
        Profile.Shape http1 = p.shapes().get(0);
        assertEquals("capacity-http1", http1.name());
        assertEquals(2, http1.timings().forks(), "the premise: standard's HTTP/1.1 search has two forks");
        List<Profile.Step> steps = p.schedule(CLIENTS, true);

        List<String> withNoop = List.of("jdk", "okhttp", "apache", Adapters.NOOP);
        assertEquals(withNoop, names(steps, "capacity-http1", 1));
        assertEquals(List.of(Adapters.NOOP, "apache", "okhttp", "jdk"), names(steps, "capacity-http1", 2));
        // The first pass leads the run as the search did before; the second ends it.
        assertEquals(withNoop, steps.subList(0, 4).stream().map(Profile.Step::client).toList());
        List<Profile.Step> last = steps.subList(steps.size() - 4, steps.size());
        assertTrue(last.stream().allMatch(s -> s.shape().name().equals("capacity-http1") && s.pass() == 2), last.toString());
        for (Profile.Step s : steps) {
            if (s.shape().name().equals("capacity-http1")) {
                assertEquals(1, s.shape().timings().forks(), "one fork a pass: " + s);
                assertEquals(2, s.passes());
                assertEquals(http1.params(), s.shape().params());
            }
        }
    }

    @Test
    void everyOtherShapeRunsOnceForEachClientWithItsOwnTimings() {
        Profile p = Profile.named("standard");
        List<Profile.Step> steps = p.schedule(CLIENTS, true);
        for (Profile.Shape shape : p.shapes().subList(1, p.shapes().size())) {
            List<Profile.Step> of = steps.stream().filter(s -> s.shape().name().equals(shape.name())).toList();
            assertEquals(shape.clients(CLIENTS), of.stream().map(Profile.Step::client).toList(), shape.name());
            assertTrue(of.stream().allMatch(s -> s.shape().equals(shape) && s.pass() == 1 && s.passes() == 1), shape.name());
        }
    }

    @Test
    void runApartTheForksCostWhatTheyCostTogether() {
        Profile p = Profile.named("standard");
        long apart = p.schedule(CLIENTS, true).stream().mapToLong(s -> s.shape().estimatedSeconds()).sum();
        long together = p.schedule(CLIENTS, false).stream().mapToLong(s -> s.shape().estimatedSeconds()).sum();
        assertEquals(together, apart);
        assertEquals(p.schedule(CLIENTS, false).size() + CLIENTS.size() + 1, p.schedule(CLIENTS, true).size());
    }

    @Test
    void withoutInterleavingEachShapeRunsOnceInProfileOrder() {
        Profile p = Profile.named("standard");
        List<Profile.Step> steps = p.schedule(CLIENTS, false);
        List<String> shapes = new ArrayList<>();
        for (Profile.Shape shape : p.shapes()) {
            for (String c : shape.clients(CLIENTS)) {
                shapes.add(shape.name() + "/" + c);
            }
        }
        assertEquals(shapes, steps.stream().map(s -> s.shape().name() + "/" + s.client()).toList());
        assertEquals(2, steps.get(0).shape().timings().forks());
    }

    @Test
    void jmhForksOnTheCommandLineRunEveryShapesForksTogether() throws Exception {
        RunPlan given = new RunPlan(Profile.named("standard"), CLIENTS, null, JmhArgs.parse(List.of("-f", "3")), Jdk.current());
        assertTrue(given.steps().stream().allMatch(s -> s.passes() == 1), "-f sets every run's forks: nothing to split");
        RunPlan plain = new RunPlan(Profile.named("standard"), CLIENTS, null, JmhArgs.parse(List.of()), Jdk.current());
        assertEquals(given.runs() + CLIENTS.size() + 1, plain.runs());
    }

    @Test
    void aOneForkSearchIsNotSplit() {
        Profile quick = Profile.named("quick");
        List<Profile.Step> steps = quick.schedule(CLIENTS, true);
        assertTrue(steps.stream().allMatch(s -> s.passes() == 1));
        assertEquals(quick.schedule(CLIENTS, false), steps);
    }
}
