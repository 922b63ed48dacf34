/**
 * The run: its plan (clientbench.plan) becomes steps, rounds, interleaved sets, repeats and looks, each a JMH run;
 * what it compares are its {@link clientbench.run.Arms}, clients or an upgrade's versions. Under the commands, which
 * start it; it may import the records (clientbench.results), the analysis bridge (clientbench.report) and every room
 * below them, never clientbench.cli.
 */
package clientbench.run;
