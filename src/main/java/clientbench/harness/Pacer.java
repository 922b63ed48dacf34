package clientbench.harness;

import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Intended start times of an open-model schedule: request {@code i} is due at {@code t0 + i / rate}
 * (or after Poisson gaps of the same mean). Times are computed from {@code i}, never by adding
 * periods, so the schedule cannot drift. Falling behind is not hidden: a late request is due at once,
 * and the caller records how late it went out.
 */
final class Pacer {

    /** parkNanos overshoots by tens of microseconds on Linux; the last stretch is spent yielding. */
    static final long YIELD_WINDOW_NANOS = 120_000;
    /** Park at most this long at a time, so that a stop request is seen promptly. */
    private static final long MAX_PARK_NANOS = 1_000_000;

    private final double nanosPerRequest;
    private final boolean poisson;
    private final SplittableRandom random = new SplittableRandom(42);
    private long t0;
    private long index;
    private double poissonOffset;

    Pacer(double ratePerSecond, boolean poisson) {
        this.nanosPerRequest = 1e9 / ratePerSecond;
        this.poisson = poisson;
    }

    void start(long t0Nanos) {
        this.t0 = t0Nanos;
        this.index = 0;
        this.poissonOffset = 0;
    }

    /** The intended start of the next request. */
    long due() {
        return poisson ? t0 + (long) poissonOffset : t0 + (long) (index * nanosPerRequest);
    }

    /** Moves on to the request after it. */
    void advance() {
        index++;
        if (poisson) {
            poissonOffset += -Math.log(1 - random.nextDouble()) * nanosPerRequest;
        }
    }

    /** Advances past every request due at or before {@code endNanos}; returns how many that was. */
    long skipDueBy(long endNanos) {
        long n = 0;
        while (due() <= endNanos) {
            advance();
            n++;
        }
        return n;
    }

    /**
     * Waits until {@code due}: parks until just before it, then yields. Returns false, early, when
     * {@code stop} turns true; never waits past {@code due}.
     */
    static boolean awaitUntil(long due, BooleanSupplier stop) {
        while (true) {
            long left = due - System.nanoTime();
            if (left <= 0) {
                return true;
            }
            if (stop.getAsBoolean()) {
                return false;
            }
            if (left > YIELD_WINDOW_NANOS) {
                LockSupport.parkNanos(Math.min(MAX_PARK_NANOS, left - YIELD_WINDOW_NANOS));
            } else {
                Thread.yield();
            }
        }
    }
}
