package clientbench.plan;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/** The progress line's time left: the profile's estimate, scaled by how fast the runs so far went. */
public final class TimeLeft {

    private TimeLeft() {
    }

    /**
     * What is left of {@code estimatedTotal} seconds of runs once runs estimated at {@code estimatedDone} took
     * what they took since {@code started}: the estimate of the rest scaled by the pace so far. Weighed by each
     * run's own estimate, since a profile's runs differ tenfold (knee searches first, short fixed rates after).
     */
    public static Duration of(Instant started, long estimatedDone, long estimatedTotal) {
        long left = Math.max(0, estimatedTotal - estimatedDone);
        if (estimatedDone <= 0) {
            return Duration.ofSeconds(left);
        }
        double pace = (double) Duration.between(started, Instant.now()).toMillis() / 1000 / estimatedDone;
        return Duration.ofSeconds((long) (pace * left));
    }

    /** {@code 1h05m} or {@code 9m30s}. */
    public static String human(Duration d) {
        long s = d.toSeconds();
        return s >= 3600 ? String.format(Locale.ROOT, "%dh%02dm", s / 3600, s % 3600 / 60)
                : String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }
}
