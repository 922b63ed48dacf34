package clientbench.cli;

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
    void theDefaultRunIsDuetsThatFitThirteenMinutesOnTwoCores() {
        // Each fork's estimate (its settling as typical, its windows and resume windows, JVM start): about 55 s a fork.
        Profile p = UpgradeCommand.profile(Profile.named(UpgradeCommand.DEFAULT_PROFILE), UpgradeCommand.DEFAULT_SHAPES,
                UpgradeCommand.DEFAULT_SETS, UpgradeCommand.DEFAULT_BLOCKS);
        assertTrue(p.shapes().stream().allMatch(s -> s.blocks() == UpgradeCommand.DEFAULT_BLOCKS
                && s.rounds() == UpgradeCommand.DEFAULT_SETS), p.shapes().toString());
        List<Schedule.Step> steps = Schedule.alternating(p.shapes(), "a", "b");
        long seconds = steps.stream().mapToLong(s -> s.shape().estimatedSeconds()).sum();
        // On top: the report (about 40 s); both jars are built before (about 60 s each when not cached).
        assertTrue(seconds + 40 <= 13 * 60, seconds + " s of forks in " + steps.size() + " steps");
    }

    @Test
    void withoutBlocksTheDefaultRoundsFitHalfAnHourOnTwoCores() {
        Profile p = UpgradeCommand.profile(Profile.named(UpgradeCommand.DEFAULT_PROFILE), UpgradeCommand.DEFAULT_SHAPES,
                UpgradeCommand.DEFAULT_ROUNDS, 0);
        List<Schedule.Step> steps = Schedule.alternating(p.shapes(), "a", "b");
        assertTrue(p.shapes().stream().noneMatch(Shape::interleaved));
        long seconds = steps.stream().mapToLong(s -> s.shape().estimatedSeconds()).sum();
        // On top: each step's own JVM (about 2 s), both jars' builds (about 60 s each when not cached), the report.
        assertTrue(seconds + 2L * steps.size() + 180 <= 30 * 60, seconds + " s of forks in " + steps.size() + " steps");
    }
}
