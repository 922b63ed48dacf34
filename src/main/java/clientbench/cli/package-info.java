/**
 * {@code ./bench}'s commands: each parses and checks its input ({@link clientbench.cli.Bench} dispatches), then hands
 * the work to the room that does it: the run (clientbench.run), the analysis (clientbench.report), startup, behaviour,
 * upgrade. The top of the flow: it may import every other package, and nothing imports it.
 */
package clientbench.cli;
