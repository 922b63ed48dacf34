package clientbench.harness;

import clientbench.adapters.Adapters;
import clientbench.api.AdapterConfig;
import clientbench.api.Protocol;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * One trial: which client, against what, with which request and load. Built from the JMH parameters
 * (strings) and validated before anything starts, so that bad input fails before the first request.
 *
 * @param client an {@link Adapters} name, or {@code noop}
 * @param target the server's base URL, or empty: the stub is started in its own JVM for the trial
 * @param protocol the pinned protocol
 * @param connections the connection limit every client gets
 * @param delayMs the stub's response delay
 * @param bytes the response body size
 * @param requestBytes POST a body of this size; 0 sends GET
 * @param load rate, concurrency and backpressure
 * @param hlog where the interval histograms go; null for none
 * @param requestTimeout every client's request timeout (long-lived shapes need more than the default)
 * @param measureHeap at the end of each window, collect garbage and record the heap the requests in
 *                    flight hold (long-lived shapes; a full GC per iteration would disturb the others)
 * @param ioThreads the client's I/O threads; 0: one per CPU the client may use after pinning ({@link CpuLayout})
 */
public record TrialSpec(String client, String target, Protocol protocol, int connections, int delayMs, int bytes,
                        int requestBytes, LoadSpec load, Path hlog, Duration requestTimeout, boolean measureHeap,
                        int ioThreads) {

    public static final Duration CONNECT_TIMEOUT = AdapterConfig.DEFAULT_CONNECT_TIMEOUT;
    public static final Duration REQUEST_TIMEOUT = AdapterConfig.DEFAULT_REQUEST_TIMEOUT;
    /** Requests still out this long after the window are counted as timeouts (a client's own timeout comes first). */
    public static final Duration DRAIN_TIMEOUT = drainFor(REQUEST_TIMEOUT);

    /** The drain waits one second longer than the clients' own timeout, so that theirs fires first. */
    public static Duration drainFor(Duration requestTimeout) {
        return requestTimeout.plusSeconds(1);
    }

    public TrialSpec {
        Objects.requireNonNull(load, "load");
        Objects.requireNonNull(protocol, "protocol");
        if (!Adapters.NOOP.equals(client) && !Adapters.names().contains(client)) {
            Adapters.create(client, null); // throws the error that lists the valid names
        }
        if (target == null) {
            target = "";
        }
        if (!target.isBlank()) {
            AdapterConfig.parseTarget(target);
        }
        if (connections <= 0) {
            throw new IllegalArgumentException("connections must be > 0, was " + connections);
        }
        if (delayMs < 0) {
            throw new IllegalArgumentException("delayMs must be >= 0, was " + delayMs);
        }
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0, was " + bytes);
        }
        if (requestBytes < 0) {
            throw new IllegalArgumentException("requestBytes must be >= 0, was " + requestBytes);
        }
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("timeoutMs must be > 0, was " + requestTimeout.toMillis());
        }
        if (ioThreads < 0) {
            throw new IllegalArgumentException("ioThreads must be > 0 (or empty: one per client CPU), was " + ioThreads);
        }
    }

    /** From JMH's string parameters; every error names the parameter. */
    public static TrialSpec parse(String client, String target, String protocol, String connections, String delayMs,
                                  String bytes, String requestBytes, LoadSpec load, Path hlog) {
        return new TrialSpec(client, target, Protocol.parse(protocol), integer("connections", connections),
                integer("delayMs", delayMs), integer("bytes", bytes), integer("requestBytes", requestBytes), load, hlog,
                REQUEST_TIMEOUT, false, 0);
    }

    /** With a request timeout other than the default, and the heap measured at the end of each window. */
    public TrialSpec withLongLived(Duration timeout) {
        return new TrialSpec(client, target, protocol, connections, delayMs, bytes, requestBytes, load, hlog, timeout, true,
                ioThreads);
    }

    /** With the JMH parameter {@code ioThreads}: empty keeps the layout's count, else a positive integer. */
    public TrialSpec withIoThreads(String value) {
        int n = value == null || value.isBlank() ? 0 : integer("ioThreads", value);
        if (value != null && !value.isBlank() && n <= 0) {
            throw new IllegalArgumentException("ioThreads must be > 0 (or empty: one per client CPU), was " + value);
        }
        return new TrialSpec(client, target, protocol, connections, delayMs, bytes, requestBytes, load, hlog,
                requestTimeout, measureHeap, n);
    }

    public static int integer(String name, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException | NullPointerException e) {
            throw new IllegalArgumentException(name + " must be an integer, was '" + value + "'");
        }
    }

    public static double number(String name, String value) {
        try {
            return Double.parseDouble(value.trim());
        } catch (NumberFormatException | NullPointerException e) {
            throw new IllegalArgumentException(name + " must be a number, was '" + value + "'");
        }
    }

    /** The path and query that ask the stub for this response. */
    public String pathAndQuery() {
        return "/?delayMs=" + delayMs + "&bytes=" + bytes;
    }
}
