package clientbench.plan;

import clientbench.adapters.Adapters;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A profile cut to the time its limit leaves ({@link TimeFit}): nothing where the estimate fits, the cuts in their
 * order where it does not, each cut's saving the estimate's own difference, and a run that cannot fit said so. The
 * estimate here is this test's: forks of each shape at their estimated seconds, and the cold starts.
 */
class TimeFitTest {

    private static final int JVMS = Adapters.names().size() + 1;

    /** Every fork of every round at its shape's estimate, and the cold starts: the run's own sum, without behaviour. */
    private static long estimate(Profile p) {
        long forks = p.shapes().stream().mapToLong(s -> (long) s.rounds() * (JVMS - (s.baseline() ? 0 : 1))
                * s.estimatedSeconds()).sum();
        return forks + (p.startup() == null ? 0 : p.startup().estimatedSeconds(JVMS));
    }

    private static Shape shape(Profile p, String name) {
        return p.shapes().stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
    }

    @Test
    void aProfileWhoseEstimateFitsIsNotCut() {
        Profile standard = Profile.named("standard");
        TimeFit fit = TimeFit.of(standard, TimeFitTest::estimate, Duration.ofHours(2));
        assertSame(standard, fit.profile());
        assertEquals(List.of(), fit.cuts());
        assertEquals(List.of(), fit.announce());
        assertTrue(fit.fits());
        TimeFit none = TimeFit.of(standard, TimeFitTest::estimate, null); // no limit: nothing to fit
        assertSame(standard, none.profile());
        assertTrue(none.fits());
    }

    @Test
    void standardPastItsTimeIsCutInOrderUntilItFitsEachCutSavingWhatTheEstimateSays() {
        Profile standard = Profile.named("standard");
        long whole = estimate(standard);
        // room for 600 s less than the whole: four cuts, and the faults stay
        TimeFit fit = TimeFit.of(standard, TimeFitTest::estimate, Duration.ofSeconds(Math.round(
                (whole - 600) / TimeFit.ESTIMATE_SHARE) + TimeFit.REPORT_SECONDS));
        Profile p = fit.profile();
        assertEquals(5, shape(p, "faults-1000").settleSeconds());
        assertEquals(new Profile.Startup(5, 2, 2, true), p.startup());
        assertEquals(2, shape(p, "closed-x16").rounds());
        assertEquals(null, shape(p, "delay1s-1000"));
        assertEquals(shape(standard, "rate-4000"), shape(p, "rate-4000"), "the common rate is never cut");
        assertEquals(shape(standard, "capacity-http1"), shape(p, "capacity-http1"));
        assertEquals(List.of("settles delay1s-1000 and faults-1000 for at most 5 s", "starts each client cold 5 times,"
                + " not 10", "runs closed-x16 in 2 rounds, not 3", "leaves out delay1s-1000"),
                fit.cuts().stream().map(TimeFit.Cut::what).toList());
        assertEquals(whole - estimate(p), fit.cuts().stream().mapToLong(TimeFit.Cut::savedSeconds).sum());
        assertEquals(JVMS * 5L, fit.cuts().get(1).savedSeconds(), "five starts fewer for each JVM, a second each");
        assertEquals(JVMS * (long) shape(standard, "closed-x16").estimatedSeconds(), fit.cuts().get(2).savedSeconds());
        assertEquals(estimate(p), fit.fittedSeconds());
        assertTrue(fit.fittedSeconds() <= fit.availableSeconds() && fit.fits());
        assertTrue(p.purpose().startsWith(standard.purpose() + "; to end within "), p.purpose());
        assertEquals(5, fit.announce().size(), String.join("\n", fit.announce()));
        Map<String, Object> json = fit.toJson();
        assertEquals(whole, json.get("estimatedSeconds"));
        assertEquals(4, ((List<?>) json.get("cuts")).size());
    }

    @Test
    void aRunThatNoCutCanFitSaysItWillRunOver() {
        Profile standard = Profile.named("standard");
        TimeFit fit = TimeFit.of(standard, TimeFitTest::estimate, Duration.ofMinutes(5));
        assertEquals(5, fit.cuts().size(), "every cut made");
        assertFalse(fit.fits());
        assertTrue(fit.announce().get(fit.announce().size() - 1).contains("it will run over 5m00s"), fit.announce().toString());
        assertEquals(false, fit.toJson().get("fits"));
        Profile quick = Profile.named("quick"); // nothing of quick's can go
        TimeFit q = TimeFit.of(quick, TimeFitTest::estimate, Duration.ofMinutes(5));
        assertEquals(List.of(), q.cuts());
        assertSame(quick, q.profile());
        assertFalse(q.fits());
    }
}
