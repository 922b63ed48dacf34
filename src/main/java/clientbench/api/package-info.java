/**
 * The adapter API: the interface every client is driven through, requests, outcomes and the config all clients share.
 * Flow: shapes (jmh) → harness → <b>api</b> → adapters → stub, the bottom of the flow. Imports only the JDK, so the
 * harness and every adapter can depend on it and it on nothing of theirs.
 */
package clientbench.api;
