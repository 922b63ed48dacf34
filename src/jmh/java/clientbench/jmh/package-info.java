/**
 * The JMH benchmarks, one class per load shape, and what turns each iteration into JMH results: the
 * shared lifecycle ({@link clientbench.jmh.LoadState}), the profiler that makes ok/s the primary score and
 * publishes the accounting, percentiles, cost and validity flags ({@link clientbench.jmh.HarnessProfiler}),
 * and the jar's entry point that adds it to every run ({@link clientbench.jmh.Main}).
 *
 * <p>Flow: <b>shapes (jmh)</b> → harness → api → adapters → stub. It imports the harness and the api; only the
 * command line imports it.
 */
package clientbench.jmh;
