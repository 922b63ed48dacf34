/**
 * What several adapters share: the settings all record alike, the {@code -vt} variants' skeleton and body buffers, a
 * deadline timer and an in-adapter connection limit for clients without them. Flow: used by the client subpackages;
 * imports only {@code clientbench.api}.
 */
package clientbench.adapters.support;
