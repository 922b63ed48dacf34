package clientbench.cli;

import clientbench.plan.Profile;
import clientbench.plan.Schedule;
import clientbench.plan.Shape;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An upgrade's steps: every round runs each shape's old version, noop (where the shape has a baseline) and new
 * version once, old first in odd rounds and new first in even ones, noop between them.
 */
class UpgradeRoundsAlternateTest {

    @Test
    void theVersionsAlternateRoundByRoundWithNoopBetween() {
        Shape rate = Profile.named("standard").shapes().get(0).inRounds(4, 0);
        Shape knee = Profile.named("standard").shapes().stream()
                .filter(s -> s.name().equals("capacity-http1")).findFirst().orElseThrow().inRounds(4, 0);
        List<Schedule.Step> steps = Schedule.alternating(List.of(rate, knee), "apache@5.4.4", "apache@5.6.5");
        List<String> got = steps.stream().map(s -> s.round() + " " + s.shape().name() + " " + s.client()).toList();
        assertEquals(List.of(
                "1 rate-4000 apache@5.4.4", "1 rate-4000 noop", "1 rate-4000 apache@5.6.5",
                "1 capacity-http1 apache@5.4.4", "1 capacity-http1 apache@5.6.5", // a knee search has no noop
                "2 rate-4000 apache@5.6.5", "2 rate-4000 noop", "2 rate-4000 apache@5.4.4",
                "2 capacity-http1 apache@5.6.5", "2 capacity-http1 apache@5.4.4",
                "3 rate-4000 apache@5.4.4", "3 rate-4000 noop", "3 rate-4000 apache@5.6.5",
                "3 capacity-http1 apache@5.4.4", "3 capacity-http1 apache@5.6.5",
                "4 rate-4000 apache@5.6.5", "4 rate-4000 noop", "4 rate-4000 apache@5.4.4",
                "4 capacity-http1 apache@5.6.5", "4 capacity-http1 apache@5.4.4"), got);
    }

    @Test
    void theDefaultRoundsRunEachVersionFirstEquallyOften() {
        // A drift within a round (the host warming, a cache filling) then costs old and new alike over the run.
        Profile p = UpgradeCommand.profile(Profile.named(UpgradeCommand.DEFAULT_PROFILE), UpgradeCommand.DEFAULT_SHAPES,
                UpgradeCommand.DEFAULT_ROUNDS, 0);
        Map<String, String> first = new LinkedHashMap<>(); // round and shape -> the version that ran first
        for (Schedule.Step s : Schedule.alternating(p.shapes(), "old", "new")) {
            if (!s.client().equals("noop")) {
                first.putIfAbsent(s.round() + " " + s.shape().name(), s.client());
            }
        }
        long oldFirst = first.values().stream().filter("old"::equals).count();
        assertEquals(UpgradeCommand.DEFAULT_ROUNDS * UpgradeCommand.DEFAULT_SHAPES.size(), first.size());
        assertEquals(first.size() - oldFirst, oldFirst, "old first in " + oldFirst + " of " + first.size());
    }

    @Test
    void aDuetIsASetOfBlocksForEveryShapeWithItsOwnTimings() {
        Profile p = UpgradeCommand.profile(Profile.named(UpgradeCommand.DEFAULT_PROFILE), List.of("rate-4000",
                "capacity-http1"), UpgradeCommand.DEFAULT_SETS, 6);
        Shape rate = p.shapes().get(0);
        assertTrue(rate.blocks() == 6 && rate.rounds() == UpgradeCommand.DEFAULT_SETS && rate.timings()
                .measurementIterations() == 6, rate.toString());
        assertTrue(!p.shapes().get(1).interleaved(), "a knee search runs in rounds: " + p.shapes().get(1));
    }

    @Test
    void theDefaultRoundsFitHalfAnHourOnTwoCores() {
        Profile p = UpgradeCommand.profile(Profile.named(UpgradeCommand.DEFAULT_PROFILE), UpgradeCommand.DEFAULT_SHAPES,
                UpgradeCommand.DEFAULT_ROUNDS, UpgradeCommand.DEFAULT_BLOCKS);
        List<Schedule.Step> steps = Schedule.alternating(p.shapes(), "a", "b");
        assertTrue(p.shapes().stream().noneMatch(Shape::interleaved));
        long seconds = steps.stream().mapToLong(s -> s.shape().estimatedSeconds()).sum();
        // On top: each step's own JVM (about 2 s), both jars' builds (about 60 s each when not cached), the report.
        assertTrue(seconds + 2L * steps.size() + 180 <= 30 * 60, seconds + " s of forks in " + steps.size() + " steps");
    }

    @Test
    void oneSetOrANegativeBlockCountIsRefusedBeforeAnythingRuns() throws Exception {
        // A set is one pair of JVMs: one set gives a ratio but no interval.
        for (String[] args : List.of(new String[] {"--rounds", "1", "--blocks", "6"}, new String[] {"--blocks", "-1"})) {
            UpgradeCommand c = new UpgradeCommand();
            List<String> all = new java.util.ArrayList<>(List.of("jetty", "12.1.14", "12.1.14"));
            all.addAll(List.of(args));
            new picocli.CommandLine(c).parseArgs(all.toArray(String[]::new));
            assertEquals(2, c.check(), String.join(" ", args));
        }
    }
}
