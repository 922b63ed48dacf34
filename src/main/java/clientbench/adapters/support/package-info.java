/**
 * What several adapters share: the settings every adapter records alike, the virtual-thread
 * executor of the {@code -vt} variants, a deadline timer for clients without a whole-exchange timeout,
 * and the in-adapter connection limit of clients that have none.
 *
 * <p>Flow: used by the client subpackages of {@code clientbench.adapters}; imports only {@code clientbench.api}.
 */
package clientbench.adapters.support;
