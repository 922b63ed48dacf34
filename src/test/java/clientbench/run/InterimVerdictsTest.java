package clientbench.run;

import clientbench.plan.Profile;
import clientbench.plan.Schedule;
import clientbench.plan.Shape;
import clientbench.plan.UntilDecided;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A run's interim verdicts (looks) under --until-decided, fed answers written here by hand: a look with a pair open goes
 * on, one with every pair decided stops its own shape's later rounds and no other shape's, and a look is due only after
 * the last step of a round of that shape from the second to the last but one.
 */
class InterimVerdictsTest {

    private static final Shape COMMON = new Shape(Profile.COMMON_SHAPE, Shape.OPEN, Map.of("rate", "2000"),
            new Shape.Timings(0, 1, 1, 1), 5, true);
    private static final Shape OTHER = Shape.closed("closed-x16", 16).rounds(5).build();
    /** Each round of each shape, its clients in a drawn order: jdk, okhttp and noop beside the common rate. */
    private static final List<Schedule.Step> STEPS = Schedule.of(List.of(COMMON, OTHER), List.of("jdk", "okhttp"), 3);

    private static final String OPEN = """
            {"shape": "rate-4000", "decided": false, "margins": {"cpu": 1.1, "p50": 1.1},
             "figures": {"cpu": {"apart": [["jdk", "okhttp"]], "alike": [], "open": []},
                         "p50": {"apart": [], "alike": [], "open": [["okhttp", "jdk"]]}}}""";
    private static final String DECIDED = """
            {"shape": "rate-4000", "decided": true, "margins": {"cpu": 1.1, "p50": 1.1},
             "figures": {"cpu": {"apart": [["jdk", "okhttp"]], "alike": [], "open": []},
                         "p50": {"apart": [], "alike": [["okhttp", "jdk"]], "open": []}}}""";

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final InterimVerdicts looks = new InterimVerdicts(new UntilDecided(Profile.COMMON_SHAPE, 5),
            new PrintStream(printed, true, StandardCharsets.UTF_8));

    @Test
    void aLookIsDueAfterTheLastStepOfTheCommonRatesRoundsTwoToFourOnly() {
        assertEquals(List.of("rate-4000 round 2/5", "rate-4000 round 3/5", "rate-4000 round 4/5"), due());
        // each after its round's last step: the next step is the other shape's
        for (int i = 0; i < STEPS.size(); i++) {
            if (looks.due(STEPS, i)) {
                assertEquals(OTHER, STEPS.get(i + 1).shape(), "after step " + i);
            }
        }
    }

    @Test
    void aPairOpenGoesOnAndEveryPairDecidedSkipsOnlyTheCommonRatesLaterRounds() {
        looks.judge(2, OPEN);
        assertEquals(List.of(), skipped(), "a pair open: nothing skipped");
        assertNull(looks.record().get("stoppedAfter"));
        assertEquals(3, due().size(), "the looks go on");

        looks.judge(3, DECIDED);
        assertEquals(List.of("rate-4000 round 4/5", "rate-4000 round 5/5"), skipped(),
                "the common rate's rounds after 3, and none of the other shape's");
        assertEquals(3, looks.record().get("stoppedAfter"));
        assertEquals(List.of(), due(), "no look after the one that found every pair decided");
        assertEquals(List.of(Map.of("afterRound", 2, "decided", false,
                        "figures", Map.of("cpu", Map.of("apart", 1, "alike", 0, "open", 0),
                                "p50", Map.of("apart", 0, "alike", 0, "open", 1))),
                Map.of("afterRound", 3, "decided", true,
                        "figures", Map.of("cpu", Map.of("apart", 1, "alike", 0, "open", 0),
                                "p50", Map.of("apart", 0, "alike", 1, "open", 0)))), looks.record().get("taken"));
        assertEquals(List.of(
                "[until decided] rate-4000 after round 2 of 5: cpu 1 apart, 0 alike within x1.10, 0 open;"
                        + " p50 0 apart, 0 alike within x1.10, 1 open; going on",
                "[until decided] rate-4000 after round 3 of 5: cpu 1 apart, 0 alike within x1.10, 0 open;"
                        + " p50 0 apart, 1 alike within x1.10, 0 open; decided: rounds 4-5 skipped"),
                printed.toString(StandardCharsets.UTF_8).lines().toList());
    }

    @Test
    void aLookTheAnalysisCouldNotAnswerLeavesTheRoundsGoingOn() {
        looks.judge(2, null);
        looks.judge(3, "Traceback (most recent call last):");
        assertEquals(List.of(), skipped());
        assertNull(looks.record().get("stoppedAfter"));
        assertEquals(List.of(2, 3), ((List<?>) looks.record().get("taken")).stream()
                .map(t -> ((Map<?, ?>) t).get("afterRound")).toList());
    }

    /** "shape round r/n" of each step a look is due after. */
    private List<String> due() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < STEPS.size(); i++) {
            if (looks.due(STEPS, i)) {
                out.add(STEPS.get(i).shape().name() + " " + STEPS.get(i).roundWords());
            }
        }
        return out;
    }

    /** "shape round r/n" of each round some step of which is skipped, in order. */
    private List<String> skipped() {
        return STEPS.stream().filter(looks::skips).map(s -> s.shape().name() + " " + s.roundWords()).distinct().toList();
    }
}
