/**
 * Set-up every kind of test shares, written once: driving one iteration ({@link clientbench.testkit.Iterations}),
 * launching a child JVM ({@link clientbench.testkit.ChildJvm}) or a JMH fork ({@link clientbench.testkit.ForkedRuns}),
 * this process's sockets ({@link clientbench.testkit.OwnSockets}) and a check that cannot run here
 * ({@link clientbench.testkit.Prerequisites}). The stub for a test is {@code clientbench.stub.StubExtension}.
 *
 * <p>May use every main package; nothing here uses another test package.
 */
package clientbench.testkit;
