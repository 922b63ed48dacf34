/**
 * The rules every judgment rests on: the SLO, the validity flags an iteration raises, and when a fork has warmed up,
 * their bounds read from {@code harness.record.Thresholds}. Imports {@code harness.record} and {@code harness.probe}
 * only, never the harness that runs the load, so the load, the benchmarks and the command line all judge alike.
 */
package clientbench.harness.rule;
