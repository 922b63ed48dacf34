/**
 * The load harness: the open-model pacer with backpressure, exact per-iteration accounting, and a trial's lifecycle
 * (stub, pinning, its record). Flow: shapes (jmh) → <b>harness</b> → api → adapters → stub. It may import
 * {@code clientbench.api}, the adapter registry, the stub and its own rule, record and probe packages (each below it);
 * never the benchmarks or the command line.
 */
package clientbench.harness;
