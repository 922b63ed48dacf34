/**
 * How each client behaves when the server or the network misbehaves: short, bounded cases against the stub's habits,
 * each client as teams ship it ({@link clientbench.api.Tuning}), counted by the stub and by the client's outcomes.
 * Flow: beside the harness, under the command line, which calls it; it may import the api, the adapter registry, the
 * harness, the stub and the jvm package.
 */
package clientbench.behaviour;
