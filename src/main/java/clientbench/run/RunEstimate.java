package clientbench.run;

import clientbench.plan.TimeLeft;

import java.time.Duration;
import java.time.Instant;

/**
 * The run's estimated seconds and those of the parts done so far (a step skipped counts as done): the time left on
 * each progress line, and the pace the repeats' budget is divided by ({@link Repeats#budgetSeconds}).
 */
final class RunEstimate {
    private final Instant started = Instant.now();
    private final long totalSeconds;
    private long doneSeconds;

    RunEstimate(long totalSeconds) {
        this.totalSeconds = totalSeconds;
    }

    void done(long seconds) {
        doneSeconds += seconds;
    }

    Instant started() {
        return started;
    }

    long totalSeconds() {
        return totalSeconds;
    }

    long doneSeconds() {
        return doneSeconds;
    }

    Duration elapsed() {
        return Duration.between(started, Instant.now());
    }

    /** "about 3 min" from the pace so far, for a progress line. */
    String left() {
        return TimeLeft.human(TimeLeft.of(started, doneSeconds, totalSeconds));
    }
}
