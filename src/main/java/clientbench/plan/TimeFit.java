package clientbench.plan;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * A profile fitted to the time its limit leaves: while the run's estimate is past a share of it, the next cut of a
 * fixed order, the least ranking per minute first (docs/reference/profiles.md#fitting-the-time), each said with what
 * it costs. {@code estimatedSeconds}: before any cut; {@code fittedSeconds}: after them; {@code availableSeconds}: what
 * the estimate may fill before a cut is made.
 */
public record TimeFit(Profile profile, Duration left, List<Cut> cuts, long estimatedSeconds, long fittedSeconds,
                      long availableSeconds) {

    /** One cut: what it changed, what that costs the answer, and the estimate's seconds it saved. */
    public record Cut(String what, String cost, long savedSeconds) {
    }

    /**
     * Cuts are made until the estimate fills at most this share of the time left: its parts are medians (a knee
     * search's fork took 12% less, one with 1 s answers 60% more), and a slow spell costs minutes.
     */
    static final double ESTIMATE_SHARE = 0.95;
    /** The report and verdict after the runs: not in the estimate, in the user's wait. */
    static final long REPORT_SECONDS = 30;
    /** The settle bound of a shape measured in one round, once cut: its figures get no letters whatever its forks do. */
    static final int ONE_ROUND_SETTLE_SECONDS = 5;

    /** A cut that applies to a profile: the profile after it, what it changed and its cost. */
    private record Applied(Profile profile, String what, String cost) {
    }

    /** Each cut, in the order they are made; null where one does not apply to the profile. */
    private static final List<Function<Profile, Applied>> CUTS = List.of(TimeFit::oneRoundSettle,
            TimeFit::fewerColdStarts, p -> roundFewer(p, "closed-x16"), p -> leftOut(p, "delay1s-1000",
                    "no figures with about 1,000 requests held 1 s each"), p -> leftOut(p, "faults-1000",
                    "no counts of failures under 5% faults; the behaviour cases still run"));

    /**
     * {@code p} cut until {@code estimate} of it fits in {@code left} (the profile's limit less what the command spent
     * before the run); null {@code left}: no limit, no cut. Cuts stop when it fits or when none is left.
     */
    public static TimeFit of(Profile p, ToLongFunction<Profile> estimate, Duration left) {
        long before = estimate.applyAsLong(p);
        if (left == null) {
            return new TimeFit(p, null, List.of(), before, before, Long.MAX_VALUE);
        }
        long available = (long) (Math.max(0, left.toSeconds() - REPORT_SECONDS) * ESTIMATE_SHARE);
        Profile fitted = p;
        long now = before;
        List<Cut> cuts = new ArrayList<>();
        for (Function<Profile, Applied> cut : CUTS) {
            if (now <= available) {
                break;
            }
            Applied a = cut.apply(fitted);
            if (a == null) {
                continue;
            }
            long after = estimate.applyAsLong(a.profile());
            cuts.add(new Cut(a.what(), a.cost(), now - after));
            fitted = a.profile();
            now = after;
        }
        if (!cuts.isEmpty()) {
            fitted = new Profile(fitted.name(), fitted.purpose() + "; to end within " + TimeLeft.human(left) + " this run "
                    + String.join(", ", cuts.stream().map(Cut::what).toList()), fitted.shapes(), fitted.timeLimit(),
                    fitted.startup());
        }
        return new TimeFit(fitted, left, List.copyOf(cuts), before, now, available);
    }

    /** Whether the fitted estimate and the report are within the time left: false, the run says it will run over. */
    public boolean fits() {
        return left == null || fittedSeconds + REPORT_SECONDS <= left.toSeconds();
    }

    /** The lines said before the run starts: none where nothing was cut and it fits. */
    public List<String> announce() {
        List<String> out = new ArrayList<>();
        if (!cuts.isEmpty()) {
            out.add("bench: the estimate, " + TimeLeft.human(Duration.ofSeconds(estimatedSeconds)) + ", is past the "
                    + TimeLeft.human(left) + " left; to fit, this run:");
            cuts.forEach(c -> out.add("  " + c.what() + " (" + c.cost() + ")"));
        }
        if (!fits()) {
            out.add("bench: even so its estimate, " + TimeLeft.human(Duration.ofSeconds(fittedSeconds))
                    + ", is past the time left: it will run over " + TimeLeft.human(left));
        }
        return out;
    }

    /** env.json's {@code conditions.timeFit}: what the limit left, the estimates, and each cut in order. */
    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("leftSeconds", left == null ? null : left.toSeconds());
        m.put("availableSeconds", left == null ? null : availableSeconds);
        m.put("estimatedSeconds", estimatedSeconds);
        m.put("fittedSeconds", fittedSeconds);
        m.put("fits", fits());
        m.put("cuts", cuts.stream().map(c -> Map.of("what", c.what(), "cost", c.cost(), "savedSeconds",
                c.savedSeconds())).toList());
        return m;
    }

    private static Applied oneRoundSettle(Profile p) {
        List<String> cut = new ArrayList<>();
        List<Shape> shapes = new ArrayList<>();
        for (Shape s : p.shapes()) {
            boolean fits = s.rounds() == 1 && !s.ownTimings() && !s.benchmark().equals(Shape.CAPACITY)
                    && s.settleSeconds() > ONE_ROUND_SETTLE_SECONDS;
            shapes.add(fits ? s.withSettleSeconds(ONE_ROUND_SETTLE_SECONDS) : s);
            if (fits) {
                cut.add(s.name());
            }
        }
        return cut.isEmpty() ? null : new Applied(with(p, shapes, p.startup()), "settles " + String.join(" and ", cut)
                + " for at most " + ONE_ROUND_SETTLE_SECONDS + " s", "figures of one round, not ranked, with more of the"
                + " JIT in them");
    }

    private static Applied fewerColdStarts(Profile p) {
        Profile.Startup s = p.startup();
        if (s == null || s.starts() <= Profile.COLD_STARTS_KEPT) {
            return null;
        }
        return new Applied(with(p, p.shapes(), s.keeping(Profile.COLD_STARTS_KEPT)), "starts each client cold "
                + Profile.COLD_STARTS_KEPT + " times, not " + s.starts(), "start-up figures on " + Profile.COLD_STARTS_KEPT
                + " starts a client");
    }

    private static Applied roundFewer(Profile p, String name) {
        Shape s = p.shapes().stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
        if (s == null || s.rounds() <= 2) {
            return null;
        }
        List<Shape> shapes = p.shapes().stream().map(x -> x == s ? s.inRounds(s.rounds() - 1, s.blocks()) : x).toList();
        return new Applied(with(p, shapes, p.startup()), "runs " + name + " in " + (s.rounds() - 1) + " rounds, not "
                + s.rounds(), name + "'s pairs on " + (s.rounds() - 1) + " JVMs of each client: fewer told apart");
    }

    private static Applied leftOut(Profile p, String name, String cost) {
        if (p.shapes().stream().noneMatch(x -> x.name().equals(name))) {
            return null;
        }
        return new Applied(with(p, p.shapes().stream().filter(x -> !x.name().equals(name)).toList(), p.startup()),
                "leaves out " + name, cost);
    }

    private static Profile with(Profile p, List<Shape> shapes, Profile.Startup startup) {
        return new Profile(p.name(), p.purpose(), List.copyOf(shapes), p.timeLimit(), startup);
    }
}
