/**
 * What a client costs before its first request: cold start in fresh JVMs ({@link clientbench.startup.StartupProbe},
 * one per start, driven by {@link clientbench.startup.StartupRun}), the JVM at rest after the first request and after
 * more work, and the client's own Maven dependencies ({@link clientbench.startup.Footprint}).
 *
 * <p>Flow: beside the harness, under the command line: it may import {@code clientbench.api}, the adapter registry,
 * {@code clientbench.harness} (the stub's JVM, atomic JSON files, the CPU layout), the stub's own counts and
 * {@code clientbench.jvm}; never the benchmarks or the command line, which calls it.
 */
package clientbench.startup;
