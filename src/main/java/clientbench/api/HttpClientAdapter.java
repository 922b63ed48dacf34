package clientbench.api;

import java.util.Map;

/**
 * The one interface every client is driven through. Contract, checked before any measurement: {@link #send} never
 * blocks on I/O and completes exactly once; the body is read in full, unless the request {@link Request#abandonsBody()}
 * (then the response is closed after its headers, as the library's users do it) or {@link Request#leavesBodyOpen()}
 * (reported after its headers, its body neither read nor closed, the response then dropped: the adapter holds it only
 * weakly, so a collector may free it); version, compression, redirects, cookies, limits and timeouts follow the config,
 * reported by {@link #settings()}; close() frees every thread and socket, those of bodies left open too.
 */
public interface HttpClientAdapter extends AutoCloseable {

    /** The JMH {@code client} parameter value, e.g. {@code jdk} or {@code okhttp-vt}. */
    String name();

    /** Starts one request; {@code completion} receives its single outcome on some thread. */
    void send(Request request, Completion completion);

    /** Maven coordinates and version of the client library, read from its jar. */
    String libraryVersion();

    /** Every effective setting, for the results' env.json. */
    Map<String, String> settings();

    /** Frees every thread and socket; idempotent. */
    @Override
    void close();
}
