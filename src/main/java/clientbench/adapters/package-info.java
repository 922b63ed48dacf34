/**
 * The adapters: one subpackage per client, each holding that client's adapters and helpers, and
 * {@link clientbench.adapters.Adapters}, the registry that names them (the JMH {@code client} parameter).
 *
 * <p>Flow: shapes (jmh) → harness → api → <b>adapters</b> → stub. The registry may import every client
 * subpackage; nothing here imports the harness, the benchmarks or the command line.
 *
 * <p>Adding a client: see {@code CONTRIBUTING.md} (the checklist).
 */
package clientbench.adapters;
