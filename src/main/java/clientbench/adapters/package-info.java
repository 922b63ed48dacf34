/**
 * The adapters: one subpackage per client, and {@link clientbench.adapters.Adapters}, the registry that names them (the
 * JMH {@code client} parameter); adding a client: CONTRIBUTING.md. Flow: shapes (jmh) → harness → api → <b>adapters</b>
 * → stub. The registry may import every client subpackage; nothing here imports the harness, the benchmarks or the CLI.
 */
package clientbench.adapters;
