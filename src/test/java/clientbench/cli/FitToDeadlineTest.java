package clientbench.cli;

import clientbench.plan.Profile;
import clientbench.plan.Schedule;
import clientbench.plan.Shape;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.options.Options;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FitToDeadlineTest {

    private final Profile quick = Profile.named("quick");
    /** quick: 12 clients and noop, 2 rounds: 26 forks at rate-4000, each 1 + 2 s of windows, 5 of start, 1 of drains. */
    private final List<Schedule.Step> steps = Schedule.of(quick.shapes(), Profile.allClients(), 1);
    private String saved;

    @BeforeEach
    void noLauncher() {
        saved = System.getProperty(ComparisonRun.COMMAND_STARTED);
        System.clearProperty(ComparisonRun.COMMAND_STARTED); // the deadline runs from the run's start
    }

    @AfterEach
    void restore() {
        if (saved != null) {
            System.setProperty(ComparisonRun.COMMAND_STARTED, saved);
        }
    }

    @Test
    void quickSharesWhatItsTenMinutesLeaveAmongTheForksLeft() {
        assertEquals(26, steps.size());
        // Started 100 s ago: the deadline is 600 - 90 - 100 = 410 s away (409 once a part-second passed). 26 forks of
        // 9 fixed s = 234: (409 - 234) / 26 = 6.7 -> 6 s.
        FitToDeadline fit = FitToDeadline.of(quick, Instant.now().minusSeconds(100), false);
        assertEquals(6, settle(fit.fitted(steps, 0, s -> true)));
        // 13 forks left, 117 fixed s: (409 - 117) / 13 = 22.5 -> the shape's 20.
        assertEquals(20, settle(fit.fitted(steps, 13, s -> true)));
        // A refused step counts for nothing: 2 forks left of the last three, 18 fixed: (409 - 18) / 2 -> 20.
        assertEquals(20, settle(fit.fitted(steps, 23, s -> s != steps.get(25))));

        Map<String, Object> json = fit.toJson();
        assertEquals(20, json.get("shapeSettleSeconds"));
        assertEquals(6, json.get("lowestCapSeconds"));
        assertEquals(1L, json.get("forksCut"));
        assertEquals(3, ((List<?>) json.get("forks")).size());
        assertEquals(steps.get(0).client(), ((Map<?, ?>) ((List<?>) json.get("forks")).get(0)).get("client"));
        assertTrue(fit.line(quick).contains("settles up to 20 s"), fit.line(quick));
    }

    @Test
    void theFittedBoundIsTheForksSettleSecondsParameter() throws Exception {
        FitToDeadline fit = FitToDeadline.of(quick, Instant.now().minusSeconds(700), false);
        Options run = RunOptions.of(JmhArgumentsReachEveryRunTest.plan(), fit.fitted(steps, 0, s -> true), "jdk", List.of());
        assertEquals(List.of("4"), List.copyOf(run.getParameter(Shape.SETTLE_SECONDS).get()));
        assertEquals(List.of("4000"), List.copyOf(run.getParameter("rate").get()), "the shape's other parameters kept");
    }

    @Test
    void pastTheDeadlineEachForkGetsTheFloor() {
        // Started 700 s ago: 190 s past the deadline.
        FitToDeadline fit = FitToDeadline.of(quick, Instant.now().minusSeconds(700), false);
        assertEquals(4, settle(fit.fitted(steps, 0, s -> true)));
        assertEquals(4, settle(fit.fitted(steps, 25, s -> true)));
        assertEquals(2L, fit.toJson().get("forksCut"));
    }

    @Test
    void noLimitTheUsersOwnBoundOrOnlySetsLeaveEveryForkAsItsShapeSays() {
        FitToDeadline smoke = FitToDeadline.of(Profile.named("smoke"), Instant.now(), false);
        List<Schedule.Step> smokeSteps = Schedule.of(Profile.named("smoke").shapes(), List.of("jdk"), 1);
        assertSame(smokeSteps.get(0).shape(), smoke.fitted(smokeSteps, 0, s -> true));
        assertNull(smoke.toJson());
        assertNull(smoke.line(Profile.named("smoke")));
        FitToDeadline theirs = FitToDeadline.of(quick, Instant.now().minusSeconds(700), true);
        assertSame(steps.get(0).shape(), theirs.fitted(steps, 0, s -> true));
        assertNull(theirs.toJson());
        assertNull(FitToDeadline.of(Profile.named("interleaved"), Instant.now(), false).line(Profile.named("interleaved")),
                "interleaved sets only: nothing to fit, nothing said");
    }

    private static int settle(Shape s) {
        return Integer.parseInt(s.params().get(Shape.SETTLE_SECONDS));
    }
}
