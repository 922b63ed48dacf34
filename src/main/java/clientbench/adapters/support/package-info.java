/**
 * What several adapters share: the settings every adapter records alike (the request-preparation policy,
 * I/O threads read back, HTTP/2's one connection), the skeleton of the {@code -vt} variants
 * ({@link clientbench.adapters.support.VirtualThreadExchanges}: virtual thread, permit, time left, outcome,
 * one report) and their body buffers, a deadline timer for clients without a whole-exchange timeout, and the
 * in-adapter connection limit of clients that have none.
 *
 * <p>Flow: used by the client subpackages of {@code clientbench.adapters}; imports only {@code clientbench.api}.
 */
package clientbench.adapters.support;
