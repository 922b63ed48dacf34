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
 */
public record LoadSpec(double ratePerSecond, int concurrency, Backpressure backpressure, Arrivals arrivals,
                       Duration drainTimeout) {

    /** PARK: wait for a completion (the wait stays inside latency). DROP: count the request as dropped, never send it. */
    public enum Backpressure {
        PARK, DROP;

        public static Backpressure parse(String s) {
            return parseEnum(Backpressure.class, "backpressure", s);
        }
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
        if (!(ratePerSecond >= 0) || Double.isInfinite(ratePerSecond)) {
            throw new IllegalArgumentException("rate must be > 0 req/s, was " + ratePerSecond);
        }
        if (concurrency <= 0) {
            throw new IllegalArgumentException("concurrency must be > 0, was " + concurrency);
        }
        if (drainTimeout.isNegative()) {
            throw new IllegalArgumentException("drainTimeout must be >= 0, was " + drainTimeout);
        }
    }

    /** The open model at {@code rate} req/s; rejects a rate that is not positive. */
    public static LoadSpec open(double rate, int concurrency, Backpressure backpressure, Duration drainTimeout) {
        if (!(rate > 0)) {
            throw new IllegalArgumentException("rate must be > 0 req/s, was " + rate);
        }
        return new LoadSpec(rate, concurrency, backpressure, Arrivals.UNIFORM, drainTimeout);
    }

    /** The closed model: {@code loops} requests always in flight. */
    public static LoadSpec closed(int loops, Duration drainTimeout) {
        return new LoadSpec(0, loops, Backpressure.PARK, Arrivals.UNIFORM, drainTimeout);
    }

    public boolean isOpen() {
        return ratePerSecond > 0;
    }

    public LoadSpec withArrivals(Arrivals a) {
        return new LoadSpec(ratePerSecond, concurrency, backpressure, a, drainTimeout);
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
