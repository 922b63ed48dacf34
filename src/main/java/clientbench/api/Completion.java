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
}
