/**
 * Set-up every kind of test shares, written once: driving one iteration, launching a child JVM or a JMH fork, HTTP/2
 * frames by hand (for the raw h2c test clients), reading this process's sockets, and what a check needs from the
 * machine. The stub for a test is {@code clientbench.stub.StubExtension}. May use every main package; nothing here
 * uses another test package.
 */
package clientbench.testkit;
