/**
 * {@code noop}: the adapter that completes every request inline and touches no network, so a benchmark of it measures
 * the harness alone, the floor under every client. Imports only {@code clientbench.api}.
 */
package clientbench.adapters.noop;
