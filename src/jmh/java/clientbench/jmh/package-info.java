/**
 * The JMH benchmarks, one class per load shape, and what turns each iteration into JMH results: the
 * shared lifecycle ({@link clientbench.jmh.LoadBenchmark}), the profiler that publishes the accounting and
 * percentiles ({@link clientbench.jmh.HarnessProfiler}).
 *
 * <p>Flow: <b>shapes (jmh)</b> → harness → api → adapters → stub. It imports the harness and the api; only the
 * command line imports it.
 */
package clientbench.jmh;
