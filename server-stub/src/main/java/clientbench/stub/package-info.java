/**
 * The Netty stub server every client is measured against: {@link clientbench.stub.StubServer}, its pipelines and
 * answers. Flow: shapes (jmh) → harness → api → adapters → <b>stub</b>, the far end of every request. Imports only
 * Netty, picocli and the JDK, so it runs alone ({@code ./bench stub}).
 */
package clientbench.stub;
