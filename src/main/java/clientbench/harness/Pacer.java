package clientbench.harness;

import clientbench.harness.probe.Libc;

import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;

/**
 * Intended start times of an open-model schedule: request {@code i} is due at {@code t0 + i / rate} (or after Poisson
 * gaps of that mean), computed from {@code i} so the schedule cannot drift and exactly {@code ceil(rate * window)} fall
 * in a window. Falling behind is not hidden: a late request is due at once, and the caller records how late.
 */
final class Pacer {

    /** SPIN: parkNanos overshoots by tens of microseconds on Linux; the last stretch is spent spinning. */
    static final long SPIN_WINDOW_NANOS = 120_000;
    /** Park at most this long at a time, so that a stop request is seen promptly. */
    static final long MAX_PARK_NANOS = 1_000_000;
    /**
     * The pacer thread's timer slack: how late past a park's end the kernel may wake it. Linux's default, 50 us, would
     * be most of the harness's own latency at 4,000 req/s; 1 ns asks to be woken as soon as the timer fires.
     */
    static final long TIMER_SLACK_NANOS = 1;

    private final LoadSpec.Pacing pacing;
    private double ratePerSecond;
    private final boolean poisson;
    private final SplittableRandom random = new SplittableRandom(42);
    private long t0Nanos;
    private long index;
    private double poissonOffsetNanos;
    /** Passes through the wait loop, for tests: about one per request when parking, hundreds when spinning. */
    private long waitLoops;

    Pacer(double ratePerSecond, boolean poisson, LoadSpec.Pacing pacing) {
        this.pacing = pacing;
        this.ratePerSecond = ratePerSecond;
        this.poisson = poisson;
    }

    /** From the next {@link #start} on; the schedule of a started window never changes. */
    void rate(double perSecond) {
        this.ratePerSecond = perSecond;
    }

    double ratePerSecond() {
        return ratePerSecond;
    }

    void start(long t0Nanos) {
        this.t0Nanos = t0Nanos;
        this.index = 0;
        this.poissonOffsetNanos = 0;
    }

    /** The intended start of the next request. */
    long dueNanos() {
        // index * 1e9 / rate, not index * (1e9 / rate): exact wherever the true value is an integer.
        return t0Nanos + (long) (poisson ? poissonOffsetNanos : index * 1e9 / ratePerSecond);
    }

    /** Moves on to the request after it. */
    void advance() {
        index++;
        if (poisson) {
            poissonOffsetNanos += -Math.log(1 - random.nextDouble()) * 1e9 / ratePerSecond;
        }
    }

    /**
     * Advances past every request due before {@code endNanos}, handing each one's intended start to
     * {@code skipped}; returns how many that was.
     */
    long skipDueBefore(long endNanos, LongConsumer skipped) {
        long n = 0;
        for (long due = dueNanos(); due - endNanos < 0; due = dueNanos()) {
            skipped.accept(due);
            advance();
            n++;
        }
        return n;
    }

    long waitLoops() {
        return waitLoops;
    }

    /**
     * Gives the calling thread, the pacer, {@link #TIMER_SLACK_NANOS} of timer slack; returns the slack in force, or
     * -1 where it cannot be set (the default then applies). Per thread: called on the thread that paces.
     */
    static long askSmallTimerSlack() {
        return Libc.timerSlackNanos(TIMER_SLACK_NANOS);
    }

    /**
     * The record's {@code pacerTimerSlackNanos}: the slack in force, or why it could not be set: the FFM API missing
     * ({@code unavailable}), or prctl refusing the call.
     */
    static Object timerSlackFact(long slackNanos, String unavailable) {
        if (slackNanos >= 0) {
            return slackNanos;
        }
        return unavailable != null ? "the default (50 us): " + unavailable
                : "failed: prctl(PR_SET_TIMERSLACK) returned an error; the thread's slack is as it was (50 us by default)";
    }

    /**
     * Waits until {@code dueNanos} (see {@link LoadSpec.Pacing}). Returns false, early, when {@code stop}
     * turns true; never waits past {@code dueNanos} but by the kernel's wake-up latency when parking.
     */
    boolean awaitUntil(long dueNanos, BooleanSupplier stop) {
        while (true) {
            long leftNanos = dueNanos - System.nanoTime();
            if (leftNanos <= 0) {
                return true;
            }
            waitLoops++;
            if (stop.getAsBoolean()) {
                return false;
            }
            if (pacing == LoadSpec.Pacing.PARK) {
                LockSupport.parkNanos(Math.min(MAX_PARK_NANOS, leftNanos));
            } else if (leftNanos > SPIN_WINDOW_NANOS) {
                LockSupport.parkNanos(Math.min(MAX_PARK_NANOS, leftNanos - SPIN_WINDOW_NANOS));
            } else {
                Thread.onSpinWait(); // a core of its own: nobody waits for it
            }
        }
    }
}
