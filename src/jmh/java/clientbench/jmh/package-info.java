/**
 * The JMH benchmarks, one class per load shape, with their shared lifecycle, the profiler that makes ok/s the primary
 * score, and the jar's entry point that adds it. Flow: <b>shapes (jmh)</b> → harness → api → adapters → stub. It
 * imports the harness and the api; only the command line imports it.
 */
package clientbench.jmh;
