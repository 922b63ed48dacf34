/**
 * What several adapters share: the settings all record alike, the {@code -vt} variants' skeleton and body buffers, a
 * deadline timer, an in-adapter connection limit for clients without them, and the open connections of Netty-based
 * ones. Flow: used by the client subpackages; imports only {@code clientbench.api} (and Netty's {@code Channel}).
 */
package clientbench.adapters.support;
