package clientbench.cli;

import clientbench.plan.Profile;
import clientbench.plan.Shape;
import clientbench.plan.TimeFit;
import clientbench.run.ClientArms;
import clientbench.run.ComparisonRun;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's commands plan runs whose estimate, as the run itself counts it down, fits the profile's limit with the
 * report: standard cut where it must (the common rate never), quick and full as they are.
 */
class ProfilesFitTheirTimeTest {

    private static RunCommand checked(String... args) throws Exception {
        RunCommand cmd = new RunCommand();
        new CommandLine(cmd).parseArgs(args);
        assertEquals(0, cmd.check());
        return cmd;
    }

    private static long estimate(RunCommand cmd) {
        return ComparisonRun.estimatedSeconds(cmd.plan(), new ClientArms(cmd.plan()));
    }

    @Test
    void standardsEstimateFitsItsHourAndItsCutsAreRecorded() throws Exception {
        RunCommand cmd = checked("--profile", "standard");
        Profile named = Profile.named("standard");
        Profile planned = cmd.plan().profile();
        long limit = named.timeLimit().toSeconds();
        assertTrue(estimate(cmd) + 30 <= limit, estimate(cmd) + " s planned for " + limit + " s");
        assertEquals(named.shapes().get(0), planned.shapes().get(0), "the common rate as named");
        Map<String, Object> record = cmd.fit().toJson();
        assertEquals(estimate(cmd), record.get("fittedSeconds"), "the record holds the estimate the run counts down");
        assertEquals(cmd.fit().cuts().isEmpty(), named.equals(planned));
        for (TimeFit.Cut c : cmd.fit().cuts()) {
            assertTrue(planned.purpose().contains(c.what()), "said where the run states its purpose: " + c.what());
        }
    }

    @Test
    void quickAndFullRunAsNamed() throws Exception {
        RunCommand quick = checked();
        assertEquals(Profile.named("quick"), quick.plan().profile());
        assertTrue(quick.fit().fits(), quick.fit().toJson().toString());
        RunCommand full = checked("--profile", "full");
        assertEquals(Profile.named("full"), full.plan().profile(), "no limit: nothing to fit");
        assertEquals(0, full.fit().cuts().size());
        assertTrue(full.plan().profile().shapes().stream().mapToInt(Shape::rounds).sum() > 0);
    }
}
