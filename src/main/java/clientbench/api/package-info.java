/**
 * The adapter API: the one interface every client is driven through ({@link clientbench.api.HttpClientAdapter}),
 * what a request is, the outcomes it can end in, and the configuration every client gets alike.
 *
 * <p>Flow: shapes (jmh) → harness → <b>api</b> → adapters → stub. The bottom of the flow: it imports
 * only the JDK, so the harness and every adapter can depend on it and it on nothing of theirs.
 */
package clientbench.api;
