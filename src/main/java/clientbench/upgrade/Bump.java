package clientbench.upgrade;

import java.util.List;
import java.util.Objects;

/**
 * One measured bump: what moved ({@code okhttp}, or {@code netty} beneath several clients), from and to which version
 * (a version that went down too), and the default clients to measure it on.
 */
public record Bump(String dependency, String from, String to, List<String> clients) {

    /** @throws IllegalArgumentException for no client, or for a client other than the dependency on an unshared one */
    public Bump {
        Objects.requireNonNull(dependency, "dependency");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        clients = List.copyOf(clients);
        if (clients.isEmpty()) {
            throw new IllegalArgumentException(dependency + ": a bump needs a client to measure it on");
        }
        if (!MeasuredClients.SHARED.containsKey(dependency) && !clients.equals(List.of(dependency))) {
            throw new IllegalArgumentException(dependency + " is no library clients share: only " + dependency
                    + " itself measures it, not " + clients);
        }
    }

    /** Per client, its build at the old version and at the new: {@code {old, new}}. */
    public List<ClientBuild[]> builds() {
        return clients.stream().map(c -> new ClientBuild[] {build(c, from), build(c, to)}).toList();
    }

    /** "okhttp 5.3.0 -> 5.5.1", "netty 4.2.17.Final -> 4.2.18.Final (ahc, reactor, vertx)". */
    public String words() {
        String line = dependency + " " + from + " -> " + to;
        return clients.equals(List.of(dependency)) ? line : line + " (" + String.join(", ", clients) + ")";
    }

    private ClientBuild build(String client, String version) {
        MeasuredClients.Shared shared = MeasuredClients.SHARED.get(dependency);
        return shared == null ? ClientBuild.of(client, version)
                : ClientBuild.moving(client, shared.property(), version, shared.artifact());
    }
}
