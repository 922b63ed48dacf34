package clientbench.cli;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/** The progress line's time left: the profile's estimate, scaled by how fast the runs so far went. */
final class TimeLeft {

    private TimeLeft() {
    }

    static Duration of(Instant started, int done, int total, Profile p, int clients) {
        long estimate = p.estimatedSeconds(clients);
        if (done == 0) {
            return Duration.ofSeconds(estimate);
        }
        // Scale the estimate of what is left by how fast the runs so far went against theirs.
        double pace = (double) Duration.between(started, Instant.now()).toSeconds() / Math.max(1, estimate * done / total);
        return Duration.ofSeconds((long) (pace * estimate * (total - done) / total));
    }

    /** {@code 1h05m} or {@code 9m30s}. */
    static String human(Duration d) {
        long s = d.toSeconds();
        return s >= 3600 ? String.format(Locale.ROOT, "%dh%02dm", s / 3600, s % 3600 / 60)
                : String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }
}
