package clientbench.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code --until-decided N}: the common rate in up to {@code maxRounds} rounds, the run asking after each from the second
 * whether every pair of clients is decided (the analysis's {@code look}: told apart, or alike within thresholds.json's
 * margin, on the figures it names) and skipping the shape's remaining rounds once so. Each of the {@link #looks()}
 * judges at the verdict's confidence split over them, so stopping on a chance difference adds no false pairs.
 */
public record UntilDecided(String shape, int maxRounds) {

    /** The first round a look may follow: a pair's interval rests on at least two JVMs of each client. */
    public static final int FIRST_LOOK_AFTER = 2;
    /** A bound on the rounds asked for: each look narrows every other look's confidence. */
    public static final int MOST_ROUNDS = 12;

    /** The shape {@code profile} would go on with, {@code maxRounds} checked; an unusable request says why. */
    public static UntilDecided of(Profile profile, int maxRounds) {
        if (maxRounds < FIRST_LOOK_AFTER || maxRounds > MOST_ROUNDS) {
            throw new IllegalArgumentException("--until-decided " + maxRounds + ": the most rounds, from "
                    + FIRST_LOOK_AFTER + " to " + MOST_ROUNDS);
        }
        String common = Profile.COMMON_SHAPE;
        Shape s = profile.shapes().stream().filter(x -> x.name().equals(common)).findFirst().orElse(null);
        if (s == null || s.interleaved()) {
            throw new IllegalArgumentException("--until-decided: profile " + profile.name() + " has no common rate ("
                    + common + ") in rounds (quick, standard and full have)");
        }
        return new UntilDecided(common, maxRounds);
    }

    /**
     * How often the shape's pairs are judged: after each round from the second (the last time by the verdict), and by
     * the verdict once more on rounds a flagged round's repeat replaced after the looks: {@code maxRounds}.
     */
    public int looks() {
        return maxRounds;
    }

    /** {@code profile} with the shape in {@link #maxRounds} rounds, its purpose saying so. */
    public Profile applyTo(Profile profile) {
        List<Shape> shapes = new ArrayList<>();
        for (Shape s : profile.shapes()) {
            shapes.add(s.name().equals(shape) ? s.inRounds(maxRounds, 0) : s);
        }
        return new Profile(profile.name(), profile.purpose() + "; the common rate (" + shape + ") in up to " + maxRounds
                + " rounds, until every pair is decided", List.copyOf(shapes), profile.timeLimit(), profile.startup());
    }

    /** Whether {@code step} is a round of the shape after which a look is taken. */
    public boolean looksAfter(Schedule.Step step) {
        return step.shape().name().equals(shape) && step.round() >= FIRST_LOOK_AFTER && step.round() < maxRounds;
    }
}
