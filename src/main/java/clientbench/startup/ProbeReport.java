package clientbench.startup;

/**
 * What one probe JVM reports ({@link StartupProbe}), as one JSON line on its standard output. A figure the probe
 * did not reach is null.
 *
 * @param client the client's name
 * @param javaVersion the probe JVM's {@code java.version}
 * @param buildMs the time to build the client through its adapter, the loading of its classes included
 * @param firstRequestMs from the first send to its outcome
 * @param firstResponseEpochMicros the wall clock (epoch, microseconds) when the first response completed, taken on
 *                                 the thread that completed it; null when it did not succeed
 * @param failure why the client could not be built or its first request did not succeed; null when it did
 * @param classesLoaded classes loaded since the JVM started, read just after the first response
 * @param afterFirst the JVM at rest just after the first response
 * @param requests the requests sent after the first
 * @param afterRequests the JVM at rest after them
 */
public record ProbeReport(String client, String javaVersion, Double buildMs, Double firstRequestMs,
                          Long firstResponseEpochMicros, String failure, Long classesLoaded, JvmAtRest afterFirst,
                          Requests requests, JvmAtRest afterRequests) {

    /**
     * The requests after the first, sent one at a time (the next when the last one's outcome is in).
     *
     * @param asked how many were to be sent
     * @param ok how many ended ok
     * @param failed how many ended in a failure class
     * @param stopped why the probe stopped before sending them all; null when it sent them all
     */
    public record Requests(int asked, int ok, int failed, String stopped) {
    }

    static ProbeReport failed(String client, Double buildMs, Double firstRequestMs, String failure) {
        return new ProbeReport(client, System.getProperty("java.version"), buildMs, firstRequestMs, null, failure,
                null, null, null, null);
    }
}
