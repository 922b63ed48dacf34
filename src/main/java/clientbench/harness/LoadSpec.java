package clientbench.harness;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * How load is offered: {@code ratePerSecond} 0 means the closed model ({@code concurrency} loops); {@code backpressure}
 * is what the pacer does at {@code concurrency} in flight. Requests still out after {@code drainTimeout} count as
 * timeout; those due in the window and unsent {@code lateSendGrace} after it count as unsent.
 */
public record LoadSpec(double ratePerSecond, int concurrency, Backpressure backpressure, Arrivals arrivals,
                       Duration drainTimeout, Duration lateSendGrace, Pacing pacing) {

    /**
     * 200 ms: longer than what delays a pacer that keeps up (a GC pause, a descheduling, a slow send: tens of ms), so
     * no phantom drops; short beside a 5 s iteration, so a client really behind gets no free time: its waiting requests
     * count as unsent.
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
     * PARK: park until the intended start (woken tens of us late, which the lag shows), leaving the core to a client
     * that shares it. SPIN: park until shortly before, then spin to the instant: sharper, but it burns a core, so only
     * for a pacer with its own.
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
