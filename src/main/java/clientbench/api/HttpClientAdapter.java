package clientbench.api;

import java.util.Map;

/**
 * The one interface every client is driven through. Implementations are final classes, one per
 * client, built from an {@link AdapterConfig}, in the same member order: constructor, send, close.
 *
 * <p>Contract (checked by the adapter contract test before any measurement):
 * <ul>
 *   <li>{@link #send} never blocks its caller on I/O and calls {@code completion} exactly once;</li>
 *   <li>the response body is read in full; its length is checked against {@link Request#expectedBodyBytes()};</li>
 *   <li>HTTP version, compression (off), redirects (off), cookies (off), connection limit and timeouts
 *       are pinned to the config and reported by {@link #settings()};</li>
 *   <li>{@link #close()} frees every thread and socket the adapter created.</li>
 * </ul>
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
