package clientbench.api;

/**
 * Receives the single outcome of one request. Called exactly once per {@link HttpClientAdapter#send},
 * from whatever thread the client completes on, so implementations must be thread-safe and quick.
 */
@FunctionalInterface
public interface Completion {
    /**
     * @param outcome ok or the failure class
     * @param status the HTTP status when a response arrived, else 0
     * @param cause the client's exception for a failure, else null
     */
    void complete(Outcome outcome, int status, Throwable cause);

    /**
     * As {@link #complete(Outcome, int, Throwable)}, with the length of the response body the client read
     * (-1 when no response was read). Adapters call this form whenever a response arrived, so that the
     * harness can record body lengths it does not check (a target whose body length varies).
     */
    default void complete(Outcome outcome, int status, long bodyBytes, Throwable cause) {
        complete(outcome, status, cause);
    }
}
