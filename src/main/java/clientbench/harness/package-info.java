/**
 * The load harness: the open-model pacer with backpressure, exact per-iteration accounting, histograms and their logs,
 * and a trial's lifecycle. Flow: shapes (jmh) → <b>harness</b> → api → adapters → stub. It may import
 * {@code clientbench.api}, the adapter registry and the stub; never the benchmarks or the command line.
 */
package clientbench.harness;
