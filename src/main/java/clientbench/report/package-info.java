/**
 * The one bridge to the Python analysis ({@link clientbench.report.Analysis}): the verdict, an upgrade's ratios, a
 * look, the report, each a command of analysis/ run with the launcher's venv. Under the run and the commands, which
 * call it; it may import the records (where the checkout is), never the run or the commands.
 */
package clientbench.report;
