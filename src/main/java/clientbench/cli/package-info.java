/**
 * {@code ./bench}: the comparison run (its plan is clientbench.plan), the run folder, env.json, the terminal's summary and
 * the report. The top of the flow: it may import every other package.
 */
package clientbench.cli;
