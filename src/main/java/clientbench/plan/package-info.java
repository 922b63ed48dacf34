/**
 * The run's plan: profiles and their shapes, the schedule of rounds and sets, the JMH arguments, the time a plan
 * takes. What will run and in which order, decided before anything runs. Used by clientbench.cli; uses the benchmark
 * classes' names (clientbench.jmh), clientbench.harness's specs and clientbench.jvm, never clientbench.cli.
 */
package clientbench.plan;
