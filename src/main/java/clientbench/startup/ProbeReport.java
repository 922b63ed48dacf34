package clientbench.startup;

/**
 * What one probe JVM reports ({@link StartupProbe}), as one JSON line on standard output; figures it did not reach are
 * null. {@code buildMs} includes loading the client's classes; {@code firstResponseEpochMicros} is taken on the thread
 * that completed the first response, null unless it succeeded.
 */
public record ProbeReport(String client, String javaVersion, Double buildMs, Double firstRequestMs,
                          Long firstResponseEpochMicros, String failure, Long classesLoaded, JvmAtRest afterFirst,
                          Requests requests, JvmAtRest afterRequests) {

    /**
     * The requests after the first, each sent when the last one's outcome is in; {@code stopped}: why the probe stopped
     * before sending them all, null when it sent them all.
     */
    public record Requests(int asked, int ok, int failed, String stopped) {
    }

    static ProbeReport failed(String client, Double buildMs, Double firstRequestMs, String failure) {
        return new ProbeReport(client, System.getProperty("java.version"), buildMs, firstRequestMs, null, failure,
                null, null, null, null);
    }
}
