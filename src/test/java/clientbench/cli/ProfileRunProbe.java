package clientbench.cli;

import clientbench.adapters.Adapters;
import clientbench.jvm.Jdk;
import clientbench.plan.JmhArgs;
import clientbench.plan.Profile;
import clientbench.plan.RunPlan;
import clientbench.plan.Shape;
import clientbench.plan.UntilDecided;
import clientbench.run.ClientArms;
import clientbench.run.ComparisonRun;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A comparison run in its own JVM, as {@code ./bench} runs one, for {@link ComparisonRunTest}: each argument a shape,
 * {@code broken} (a parameter refused at setup: the fork fails as a crashed client's does) or {@code good} (1k req/s).
 * The client is {@code noop}, the harness alone: the quickest fork that still runs a whole trial. {@code until N A,B [R]}:
 * clients A and B (and noop) in up to N rounds, stopping once the analysis finds every pair decided; with R, the
 * {@code good} shape beside it in R rounds of its own. No fork settles: the runs check the run's steps, not figures.
 */
public final class ProfileRunProbe {
    static final Shape.Timings ONCE = new Shape.Timings(0, 1, 1, 1);
    static final Shape BROKEN = new Shape("broken", Shape.OPEN,
            Map.of("rate", "1000", "delayMs", "-1", "settleSeconds", "0"), ONCE, 1, false);
    static final Shape GOOD = new Shape("immediate-1000", Shape.OPEN, Map.of("rate", "1000", "settleSeconds", "0"), ONCE,
            1, false);

    private ProfileRunProbe() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 3 && args[0].equals("until")) {
            System.exit(untilDecided(Integer.parseInt(args[1]), List.of(args[2].split(",")),
                    args.length > 3 ? Integer.parseInt(args[3]) : 0));
        }
        List<Shape> shapes = new ArrayList<>();
        for (String a : args) {
            shapes.add(switch (a) {
                case "broken" -> BROKEN;
                case "good" -> GOOD;
                default -> throw new IllegalArgumentException("unknown shape " + a);
            });
        }
        Profile profile = new Profile("probe", "ComparisonRunTest's failing run", shapes, null);
        RunPlan plan = new RunPlan(profile, List.of(Adapters.NOOP), null, JmhArgs.parse(List.of()), Jdk.current());
        System.exit(new ComparisonRun(plan, System.out, new ClientArms(plan), null).run());
    }

    /**
     * The common rate's name on a short shape (2k req/s, one measured second, noop beside) in up to {@code rounds};
     * {@code otherRounds} above 0: {@link #GOOD} beside it, in that many rounds.
     */
    static int untilDecided(int rounds, List<String> clients, int otherRounds) throws Exception {
        Shape common = new Shape(Profile.COMMON_SHAPE, Shape.OPEN, Map.of("rate", "2000", "settleSeconds", "0"), ONCE, 1, true);
        List<Shape> shapes = otherRounds == 0 ? List.of(common) : List.of(common, GOOD.inRounds(otherRounds, 0));
        Profile profile = new Profile("probe", "ComparisonRunTest's run until decided", shapes, null);
        UntilDecided until = UntilDecided.of(profile, rounds);
        RunPlan plan = new RunPlan(until.applyTo(profile), clients, null, JmhArgs.parse(List.of()), Jdk.current());
        return new ComparisonRun(plan, System.out, new ClientArms(plan), until).run();
    }
}
