/**
 * The adapters for AsyncHttpClient 3, and their helpers: {@code *Clients} builds and describes the client,
 * {@code *Exchange} holds one request's state where the adapter needs more than a callback.
 *
 * <p>Flow: registered in {@link clientbench.adapters.Adapters}; imports {@code clientbench.api},
 * {@code clientbench.adapters.support} and the client library, nothing else of clientbench.
 */
package clientbench.adapters.ahc;
