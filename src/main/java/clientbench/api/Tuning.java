package clientbench.api;

import java.util.Locale;

/**
 * How far an adapter keeps its client off the library's defaults. The benchmarks run {@link #SUITE}; the behaviour run
 * ({@code clientbench.behaviour}) runs a client as teams ship it. The lower-case name is what results record.
 */
public enum Tuning {
    /** Every benchmark's pins: retries off, the suite's connection limit and timeouts (docs/reference/clients.md). */
    SUITE("retries off; the suite's connection limit and timeouts"),
    /** The library's own retries and connection checks, on the suite's connection limit and timeouts. */
    AS_SHIPPED("the library's own retries and connection checks; the suite's connection limit and timeouts"),
    /** As shipped, and the library's own pool and dispatcher limits (none where it has none). */
    LIBRARY_LIMITS("the library's own retries, connection checks and pool limits; the suite's timeouts"),
    /**
     * As shipped, and the request timeout the library documents, of whatever kind it is ({@link TimeoutKind}), with
     * none of the adapter's: the suite's timer only where the library has no timeout of its own.
     */
    LIBRARY_TIMEOUT("the library's own retries, connection checks and request timeout; the suite's connection limit"),
    /** Both: the library's own pool and dispatcher limits and its own request timeout, as a team that sets neither runs. */
    LIBRARY_LIMITS_AND_TIMEOUT("the library's own retries, connection checks, pool limits and request timeout");

    private final String meaning;

    Tuning(String meaning) {
        this.meaning = meaning;
    }

    /** True when the adapter leaves the library's retries and connection checks as they are. */
    public boolean libraryRetries() {
        return this != SUITE;
    }

    /** True when the adapter leaves the library's pool and dispatcher limits as they are and adds none of its own. */
    public boolean libraryLimits() {
        return this == LIBRARY_LIMITS || this == LIBRARY_LIMITS_AND_TIMEOUT;
    }

    /** True when the adapter gives the request timeout to the library's own timeout alone, whatever it covers. */
    public boolean libraryTimeout() {
        return this == LIBRARY_TIMEOUT || this == LIBRARY_LIMITS_AND_TIMEOUT;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public String meaning() {
        return meaning;
    }
}
