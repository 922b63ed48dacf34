/**
 * Set-up every kind of test shares, written once: driving one iteration or a bounded batch of requests, launching a
 * child JVM or a JMH fork, HTTP/2 frames by hand (for the raw h2c test clients), reading this process's sockets, and
 * what a check needs from the machine. The stub for a test is {@code clientbench.stub.StubExtension}, or
 * {@link clientbench.testkit.StubJvm} in a JVM of its own. May use every main package; nothing here uses another test
 * package.
 */
package clientbench.testkit;
