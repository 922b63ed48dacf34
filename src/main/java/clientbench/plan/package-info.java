/**
 * The run's plan: profiles and their shapes, the schedule of rounds and sets, the JMH arguments, the time a plan
 * takes. What will run and in which order, decided before anything runs. Used by the commands, the run and its records
 * (clientbench.cli, .run, .record); uses the benchmark classes' names (clientbench.jmh), clientbench.harness's specs and
 * clientbench.jvm, never a room above it.
 */
package clientbench.plan;
