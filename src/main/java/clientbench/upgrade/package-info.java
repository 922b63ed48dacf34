/**
 * One benchmark jar per version of a client, for {@code ./bench upgrade}: the pom's version property overridden, the
 * adapter compiled and its contract test run against that version, the jar cached by version and sources
 * ({@link clientbench.upgrade.VersionJar}); a build that fails is one line naming the version and the first failure
 * ({@link clientbench.jvm.MavenFailure}).
 *
 * <p>Flow: under the command line, beside the harness: it may import {@code clientbench.api} (the version read from a
 * jar), the adapter registry, {@code clientbench.startup}'s list of each client's artifacts and {@code clientbench.jvm};
 * never the benchmarks or the command line, which calls it.
 */
package clientbench.upgrade;
