/**
 * A trial's records: what one iteration measured ({@code IterationSnapshot}, its {@code Probes}), its histogram log,
 * JSON written whole, and thresholds.json's bounds, which an iteration's probes carry and Python reads as well. Imports
 * {@code clientbench.api} and {@code harness.probe} only; the rules judge these records and the harness writes them.
 */
package clientbench.harness.record;
