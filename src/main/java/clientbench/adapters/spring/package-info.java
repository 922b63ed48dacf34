/**
 * Spring's RestClient and WebClient, each over the engines Spring ships a factory or connector for: the engine built by
 * the bare adapter's own code ({@code *Clients}, {@code ReactorEngine}), the Spring layer as Boot 4 builds it. Opt-in,
 * registered in {@link clientbench.adapters.Adapters}; of clientbench it imports {@code clientbench.api},
 * {@code clientbench.adapters.support} and the engines' packages (jdk, apache, jetty, reactor).
 */
package clientbench.adapters.spring;
