package clientbench.cli;

import clientbench.plan.Profile;
import clientbench.plan.Schedule;
import clientbench.plan.SettleFit;
import clientbench.plan.Shape;
import clientbench.plan.TimeLeft;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A profile's time limit as a deadline for its steps: each fork alone settles for at most what {@link SettleFit} leaves
 * it; env.json's {@code conditions.fit} records the bound each got. Without a limit, every fork keeps its shape's.
 */
final class FitToDeadline {

    private final Instant deadline;
    private final List<Map<String, Object>> forks = new ArrayList<>();

    private FitToDeadline(Instant deadline) {
        this.deadline = deadline;
    }

    /**
     * From the launcher's start (the run's start without it) plus the profile's limit, less the report's time
     * ({@link Repeats#REPORT_SECONDS}); none without a limit, without a shape to fit, or when {@code off} (the user's
     * {@code -p settleSeconds}).
     */
    static FitToDeadline of(Profile p, Instant started, boolean off) {
        Duration left = ComparisonRun.limitLeft(p.timeLimit(), started);
        return new FitToDeadline(left == null || off || p.shapes().stream().noneMatch(FitToDeadline::fits) ? null
                : started.plus(left).minusSeconds(Repeats.REPORT_SECONDS));
    }

    /** The run's first words on it, or null without a deadline. */
    String line(Profile p) {
        if (deadline == null) {
            return null;
        }
        int most = p.shapes().stream().filter(FitToDeadline::fits).mapToInt(Shape::settleSeconds).max().orElse(0);
        return "bench: steps end by " + DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault())
                .format(deadline) + " (" + p.name() + "'s " + TimeLeft.human(p.timeLimit()) + " from launch, "
                + Repeats.REPORT_SECONDS + " s kept for the report): a fork settles up to " + most + " s, less when the"
                + " time left asks (" + SettleFit.FLOOR_SECONDS + " s at least); env.json counts the forks cut, the"
                + " verdict marks those not steady";
    }

    /**
     * The shape {@code steps[i]} runs with: its settle bound fitted to the time left, shared with the steps after it
     * that {@code runs}, recorded. Steps not fitted here (interleaved sets) count with their whole estimate.
     */
    Shape fitted(List<Schedule.Step> steps, int i, Predicate<Schedule.Step> runs) {
        Schedule.Step step = steps.get(i);
        if (deadline == null || !fits(step.shape())) {
            return step.shape();
        }
        long fixed = 0;
        int settling = 0;
        for (Schedule.Step s : steps.subList(i, steps.size())) {
            if (!runs.test(s)) {
                continue;
            }
            boolean fits = fits(s.shape());
            fixed += fits ? s.shape().fixedSeconds() : s.shape().estimatedSeconds();
            settling += fits ? 1 : 0;
        }
        long toDeadline = Duration.between(Instant.now(), deadline).toSeconds();
        int cap = SettleFit.capSeconds(step.shape().settleSeconds(), toDeadline, fixed, settling);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("shape", step.shape().name());
        m.put("round", step.round());
        m.put("client", step.client());
        m.put("settleCapSeconds", cap);
        m.put("shapeSettleSeconds", step.shape().settleSeconds());
        m.put("secondsToDeadline", toDeadline);
        forks.add(m);
        return step.shape().settlingFor(cap);
    }

    /** Whether a shape's forks get a fitted bound: they settle, and alone (a set's settle in turns, together). */
    private static boolean fits(Shape s) {
        return !s.interleaved() && s.settleSeconds() > 0;
    }

    /** How many forks settled under a bound cut below their shape's. */
    long cut() {
        return forks.stream().filter(f -> (int) f.get("settleCapSeconds") < (int) f.get("shapeSettleSeconds")).count();
    }

    /** env.json's {@code conditions.fit}, or null without a deadline. */
    Map<String, Object> toJson() {
        if (deadline == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("deadline", deadline.toString());
        m.put("reserveSeconds", Repeats.REPORT_SECONDS);
        m.put("floorSeconds", SettleFit.FLOOR_SECONDS);
        m.put("shapeSettleSeconds", forks.stream().mapToInt(f -> (int) f.get("shapeSettleSeconds")).max().orElse(0));
        m.put("lowestCapSeconds", forks.isEmpty() ? null
                : forks.stream().mapToInt(f -> (int) f.get("settleCapSeconds")).min().getAsInt());
        m.put("forksCut", cut());
        m.put("forks", forks);
        return m;
    }
}
