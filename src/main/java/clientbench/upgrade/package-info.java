/**
 * One benchmark jar per client version for {@code ./bench upgrade}, the contract test run against it, cached by version
 * and sources ({@link clientbench.upgrade.VersionJar}); and which measured clients a team's dependency bump moves
 * ({@link clientbench.upgrade.DependencyDiff}). Flow: under the command line, which calls it; it may import the api,
 * the adapter registry, {@code clientbench.startup}'s artifact lists and {@code clientbench.jvm}.
 */
package clientbench.upgrade;
