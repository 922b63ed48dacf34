package clientbench.plan;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code --until-decided N}: which profiles take it, the rounds it gives the common rate, and after which rounds it looks. */
class UntilDecidedTest {

    private static final List<String> CLIENTS = List.of("jdk", "okhttp", "jetty");

    @Test
    void theCommonRateGetsTheRoundsAskedForAndEveryOtherShapeKeepsItsOwn() {
        Profile standard = Profile.named("standard");
        UntilDecided u = UntilDecided.of(standard, 6);
        Profile p = u.applyTo(standard);
        assertEquals("rate-4000", u.shape());
        assertEquals(6, u.looks(), "after rounds 2 to 5, the verdict after round 6, and the verdict on rounds run again");
        for (int i = 0; i < p.shapes().size(); i++) {
            Shape before = standard.shapes().get(i);
            Shape after = p.shapes().get(i);
            assertEquals(before.name().equals("rate-4000") ? 6 : before.rounds(), after.rounds(), after.name());
            assertEquals(before.params(), after.params(), after.name());
            assertEquals(before.timings(), after.timings(), after.name());
        }
        assertTrue(p.purpose().startsWith(standard.purpose() + "; the common rate (rate-4000) in up to 6 rounds"), p.purpose());
        // Rounds 4 to 6 of the common rate come after every other shape's last round.
        List<Schedule.Step> steps = Schedule.of(p.shapes(), CLIENTS, 7);
        int firstFourth = steps.indexOf(steps.stream().filter(s -> s.round() == 4).findFirst().orElseThrow());
        assertTrue(steps.subList(firstFourth, steps.size()).stream().allMatch(s -> s.shape().name().equals("rate-4000")));
        assertEquals(4 * 6, steps.stream().filter(s -> s.shape().name().equals("rate-4000")).count(),
                "three clients and noop in each of 6 rounds");
    }

    @Test
    void itLooksAfterEachRoundOfTheCommonRateFromTheSecondToTheLastButOne() {
        Profile quick = Profile.named("quick");
        UntilDecided u = UntilDecided.of(quick, 4);
        Shape common = u.applyTo(quick).shapes().get(0);
        Shape other = Shape.closed("closed-x16", 16).rounds(4).build();
        assertFalse(u.looksAfter(new Schedule.Step(common, "jdk", 1, 4)));
        assertTrue(u.looksAfter(new Schedule.Step(common, "jdk", 2, 4)));
        assertTrue(u.looksAfter(new Schedule.Step(common, "jdk", 3, 4)));
        assertFalse(u.looksAfter(new Schedule.Step(common, "jdk", 4, 4)), "after the last round the verdict judges");
        assertFalse(u.looksAfter(new Schedule.Step(other, "jdk", 2, 4)));
    }

    @Test
    void aProfileWithoutTheCommonRateInRoundsOrAnUnusableCountIsRefusedSayingWhy() {
        Profile quick = Profile.named("quick");
        assertEquals("--until-decided 1: the most rounds, from 2 to 12",
                assertThrows(IllegalArgumentException.class, () -> UntilDecided.of(quick, 1)).getMessage());
        assertEquals("--until-decided 13: the most rounds, from 2 to 12",
                assertThrows(IllegalArgumentException.class, () -> UntilDecided.of(quick, 13)).getMessage());
        assertEquals("--until-decided: profile interleaved has no common rate (rate-4000) in rounds (quick, standard and full"
                + " have)",
                assertThrows(IllegalArgumentException.class,
                        () -> UntilDecided.of(Profile.named("interleaved"), 4)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> UntilDecided.of(Profile.named("smoke"), 4));
    }
}
