/**
 * A run's records and the facts they hold: the run folder, env.json, summary.json, results.json and results.csv, the
 * conditions the run was made under. Under the run, which writes them, and the analysis bridge, which finds them; it
 * may import the plan, the benchmarks' names, the harness, the adapters' registry and the api, never the run or the
 * commands.
 */
package clientbench.results;
