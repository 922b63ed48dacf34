/**
 * Set-up every kind of test shares, written once: driving one iteration, launching a child JVM or a JMH fork, reading
 * this process's sockets, and what a check needs from the machine. The stub for a test is
 * {@code clientbench.stub.StubExtension}. May use every main package; nothing here uses another test package.
 */
package clientbench.testkit;
