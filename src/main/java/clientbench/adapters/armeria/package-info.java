/**
 * The adapter for Armeria's WebClient (async) and its helpers ({@code *Clients} builds and describes the client,
 * {@code *Exchange} holds a request's state). Opt-in, registered in {@link clientbench.adapters.Adapters}; of
 * clientbench it imports only {@code clientbench.api} and {@code clientbench.adapters.support}.
 */
package clientbench.adapters.armeria;
