package clientbench.harness;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * How load is offered.
 *
 * @param ratePerSecond open model: intended requests per second; 0 means the closed model (each of
 *                      {@code concurrency} loops sends its next request when the last one completes)
 * @param concurrency the most requests in flight at once (the backpressure bound)
 * @param backpressure what the pacer does when {@code concurrency} requests are in flight
 * @param arrivals uniform spacing or Poisson arrivals (open model only)
 * @param drainTimeout how long the end of an iteration waits for requests still in flight; those
 *                     still out then count as {@code timeout}
 * @param lateSendGrace open model: how long after the window's end a request that fell due inside the
 *                      window may still go out (late, which its lag and latency show); what is still
 *                      unsent then is counted {@code unsent}
 * @param pacing how the pacer waits for a request's intended start (see {@link Pacing})
 */
public record LoadSpec(double ratePerSecond, int concurrency, Backpressure backpressure, Arrivals arrivals,
                       Duration drainTimeout, Duration lateSendGrace, Pacing pacing) {

    /**
     * 200 ms: longer than what delays a pacer that keeps up (a GC pause, a descheduling on a busy
     * 2-core machine, a slow {@code send}: tens of milliseconds; the defect this replaces lost 15-56 ms),
     * so that a client that keeps up never shows phantom drops; short next to a 5 s iteration (4%), so
     * that a client that is really behind (no free permit) gets no free time: its requests still waiting
     * then are counted unsent, with a lower-bound latency.
     */
    public static final Duration DEFAULT_LATE_SEND_GRACE = Duration.ofMillis(200);

    /** PARK: wait for a completion (the wait stays inside latency). DROP: count the request as dropped, never send it. */
    public enum Backpressure {
        PARK, DROP;

        public static Backpressure parse(String s) {
            return parseEnum(Backpressure.class, "backpressure", s);
        }
    }

    /**
     * PARK: park until the intended start, to the nanosecond asked (the kernel wakes the thread some tens
     * of microseconds late, which the lag shows): the pacer's choice when it shares a core with the
     * client, whose threads then have the core between sends. SPIN: park until shortly before, then
     * spin to the instant: sharper, but it burns the rest of a core, so only for a pacer with a core of
     * its own.
     */
    public enum Pacing {
        PARK, SPIN
    }

    public enum Arrivals {
        UNIFORM, POISSON;

        public static Arrivals parse(String s) {
            return parseEnum(Arrivals.class, "arrivals", s);
        }
    }

    public LoadSpec {
        Objects.requireNonNull(backpressure, "backpressure");
        Objects.requireNonNull(arrivals, "arrivals");
        Objects.requireNonNull(drainTimeout, "drainTimeout");
        Objects.requireNonNull(lateSendGrace, "lateSendGrace");
        Objects.requireNonNull(pacing, "pacing");
        if (!(ratePerSecond >= 0) || Double.isInfinite(ratePerSecond)) {
            throw new IllegalArgumentException("rate must be > 0 req/s, was " + ratePerSecond);
        }
        if (concurrency <= 0) {
            throw new IllegalArgumentException("concurrency must be > 0, was " + concurrency);
        }
        if (drainTimeout.isNegative()) {
            throw new IllegalArgumentException("drainTimeout must be >= 0, was " + drainTimeout);
        }
        if (lateSendGrace.isNegative()) {
            throw new IllegalArgumentException("lateSendGrace must be >= 0, was " + lateSendGrace);
        }
    }

    /** The open model at {@code rate} req/s; rejects a rate that is not positive. */
    public static LoadSpec open(double rate, int concurrency, Backpressure backpressure, Duration drainTimeout) {
        if (!(rate > 0)) {
            throw new IllegalArgumentException("rate must be > 0 req/s, was " + rate);
        }
        return new LoadSpec(rate, concurrency, backpressure, Arrivals.UNIFORM, drainTimeout, DEFAULT_LATE_SEND_GRACE,
                Pacing.PARK);
    }

    /** The closed model: {@code loops} requests always in flight. */
    public static LoadSpec closed(int loops, Duration drainTimeout) {
        return new LoadSpec(0, loops, Backpressure.PARK, Arrivals.UNIFORM, drainTimeout, DEFAULT_LATE_SEND_GRACE, Pacing.PARK);
    }

    public boolean isOpen() {
        return ratePerSecond > 0;
    }

    public LoadSpec withArrivals(Arrivals a) {
        return new LoadSpec(ratePerSecond, concurrency, backpressure, a, drainTimeout, lateSendGrace, pacing);
    }

    public LoadSpec withLateSendGrace(Duration grace) {
        return new LoadSpec(ratePerSecond, concurrency, backpressure, arrivals, drainTimeout, grace, pacing);
    }

    public LoadSpec withPacing(Pacing p) {
        return new LoadSpec(ratePerSecond, concurrency, backpressure, arrivals, drainTimeout, lateSendGrace, p);
    }

    static <E extends Enum<E>> E parseEnum(Class<E> type, String what, String s) {
        for (E e : type.getEnumConstants()) {
            if (e.name().equalsIgnoreCase(s == null ? "" : s.trim())) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown " + what + " '" + s + "'; valid: "
                + java.util.Arrays.stream(type.getEnumConstants()).map(e -> e.name().toLowerCase(Locale.ROOT)).toList());
    }
}
