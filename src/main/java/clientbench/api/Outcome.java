package clientbench.api;

import java.util.Locale;

/**
 * The one outcome every request ends with: {@link #OK} is a 2xx with the whole body read, every other a failure class;
 * dropped requests are the harness's and never appear here. The lower-case {@link #label()} is API: it names the JMH
 * secondary metrics ({@code fail.<label>}) and the notebook's columns.
 */
public enum Outcome {
    /** 2xx and the body read in full, with the expected length. */
    OK,
    /** The server answered with a status outside 2xx. */
    STATUS,
    /** The request timeout passed, or the harness's drain deadline did. */
    TIMEOUT,
    /** No connection could be made: refused, unreachable, or the connect timeout passed. */
    CONNECT,
    /** The connection was reset or closed under the request, or another I/O error. */
    RESET,
    /** The client itself refused the request: its pool or queue was full. */
    REJECTED,
    /** Anything else, including a 2xx whose body length was wrong. */
    OTHER;

    private static final Outcome[] FAILURES = {STATUS, TIMEOUT, CONNECT, RESET, REJECTED, OTHER};

    private final String label = name().toLowerCase(Locale.ROOT);

    public String label() {
        return label;
    }

    public boolean isFailure() {
        return this != OK;
    }

    /** The failure classes, in a fixed order, without {@link #OK}. */
    public static Outcome[] failures() {
        return FAILURES.clone();
    }
}
