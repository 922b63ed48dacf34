/**
 * The JDK clientbench runs on: its version, probed, and the flags every JVM clientbench starts gets, read
 * from {@code jdk-flags.txt}, the one list that the launcher ({@code bench}) and the build's test runs read too; and
 * Maven run on such a JDK ({@link clientbench.jvm.Maven}), for the builds and dependency lists made besides the
 * project's own.
 *
 * <p>Flow: beside {@code clientbench.api} at the bottom: it imports only the JDK, so the command line (the
 * forks' flags, {@code --jdk}), the harness (the stub's JVM) and the tests can all use it.
 */
package clientbench.jvm;
