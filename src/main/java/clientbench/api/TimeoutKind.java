package clientbench.api;

import java.util.Locale;

/**
 * What the timeout an adapter gives its request timeout to covers. The lower-case label is what the adapters' settings
 * record ({@code timeoutKind}) and the behaviour table prints: API.
 */
public enum TimeoutKind {
    /** The library's own, over the whole exchange, body included (OkHttp's callTimeout, Jetty's Request.timeout). */
    TOTAL,
    /** The library's own, up to the response headers: a stalled or trickled body never ends it (the JDK before 26). */
    HEADERS,
    /** The library's own, between two reads: a body trickled faster than it never ends it (Apache's responseTimeout). */
    PER_READ,
    /** The suite's timer over the whole exchange, in the adapter: for a library whose own timeout is not total. */
    SUITE;

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
