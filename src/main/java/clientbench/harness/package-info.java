/**
 * The load harness: the open-model pacer with backpressure, exact per-iteration accounting, the
 * histograms and their logs, and one trial's lifecycle (stub JVM, adapter, generator, probes).
 *
 * <p>Flow: shapes (jmh) → <b>harness</b> → api → adapters → stub. It may import {@code clientbench.api},
 * the adapter registry and the stub (to start it in a JVM of its own); never the benchmarks or the
 * command line.
 */
package clientbench.harness;
