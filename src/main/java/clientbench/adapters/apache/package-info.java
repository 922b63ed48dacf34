/**
 * The adapters for Apache HttpClient 5 (async, and classic on virtual threads) and their helpers ({@code *Clients}
 * builds the client, {@code *Exchange} holds a request's state). Registered in {@link clientbench.adapters.Adapters};
 * of clientbench it imports only {@code clientbench.api} and {@code clientbench.adapters.support}.
 */
package clientbench.adapters.apache;
