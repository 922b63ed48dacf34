/**
 * The JDK clientbench runs on: its version, the flags every JVM it starts gets ({@code jdk-flags.txt}, read by the
 * launcher and the tests too), and Maven run on it. Flow: at the bottom beside {@code clientbench.api}; it imports only
 * the JDK, so the command line, the harness and the tests can all use it.
 */
package clientbench.jvm;
