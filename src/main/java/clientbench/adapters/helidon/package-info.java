/**
 * The adapters for Helidon WebClient 4 (on virtual threads), and their helpers: {@code *Clients} builds and describes the client,
 * {@code *Exchange} holds one request's state where the adapter needs more than a callback.
 *
 * <p>Flow: registered in {@link clientbench.adapters.Adapters}; imports {@code clientbench.api},
 * {@code clientbench.adapters.support} and the client library, nothing else of clientbench.
 */
package clientbench.adapters.helidon;
