/**
 * The Netty stub server every client is measured against, as Server ({@link clientbench.stub.StubServer}),
 * Initializer (the pipelines) and Handler (the answers).
 *
 * <p>Flow: shapes (jmh) → harness → api → adapters → <b>stub</b>: the far end of every request. It imports only
 * Netty, picocli and the JDK, so it runs alone ({@code ./bench stub}).
 */
package clientbench.stub;
