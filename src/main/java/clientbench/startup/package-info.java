/**
 * What a client costs before its first request: cold starts in fresh JVMs ({@link clientbench.startup.StartupProbe}),
 * the JVM at rest after, its own Maven dependencies. Flow: beside the harness, under the command line, which calls it;
 * it may import the api, the adapter registry, the harness, the stub and the jvm package.
 */
package clientbench.startup;
