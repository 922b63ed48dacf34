package clientbench.upgrade;

import clientbench.adapters.Adapters;
import clientbench.startup.ClientArtifacts;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Which default clients a changed module moves: a client's own artifacts and BOM move that client, any Netty module
 * moves every client that runs on Netty; any other change is a line saying why no default client measures it.
 */
final class MeasuredClients {

    static final String NETTY = "netty";
    /**
     * By mvn dependency:tree -Dverbose: io.netty is under ahc's, reactor's and vertx's artifacts, no other default's;
     * their adapters record the Netty they run on (settings "netty"), the others none.
     */
    static final List<String> NETTY_CLIENTS = List.of("ahc", "reactor", "vertx");

    /** A library several clients run on: the pom property that sets it, and the artifact the jar reads it back from. */
    record Shared(String property, String artifact, List<String> clients) {
    }

    static final Map<String, Shared> SHARED = Map.of(NETTY,
            new Shared("netty.version", "io.netty:netty-handler", NETTY_CLIENTS));

    /** Modules that move a client besides those ClientArtifacts lists: its BOM, its jar under another name. */
    private static final Map<String, String> ALSO_OWN = Map.of(
            "com.squareup.okhttp3:okhttp", "okhttp", // OkHttp 4's jar; OkHttp 5's multiplatform module
            "com.squareup.okhttp3:okhttp-bom", "okhttp",
            "org.eclipse.jetty:jetty-bom", "jetty",
            "io.vertx:vertx-stack-depchain", "vertx");
    private static final String REACTOR_BOM = "io.projectreactor:reactor-bom";
    private static final String SPRING = "org.springframework:";
    private static final String NETTY_GROUP = "io.netty:";
    // netty-tcnative has versions of its own (2.0.x), apart from Netty's; no client here runs on it.
    private static final String NETTY_TCNATIVE = "io.netty:netty-tcnative";

    /** Module to the default client it moves. */
    private static final Map<String, String> OWN = own();
    /** Module to the opt-in clients that alone run on it (Armeria, Spring's connectors, Micrometer). */
    private static final Map<String, List<String>> OPT_IN_ONLY = optInOnly();

    private MeasuredClients() {
    }

    /**
     * The bumps the changes make, one per client (or shared library) and from/to, and a line for each other change,
     * after the {@code unread} files' lines.
     */
    static DependencyDiff.Found found(Collection<Declared.Change> changes, Collection<String> unread) {
        Map<List<String>, Bump> bumps = new LinkedHashMap<>();
        TreeSet<String> notMeasured = new TreeSet<>(unread);
        TreeSet<String> unresolved = new TreeSet<>(unread);
        for (Declared.Change c : changes) {
            String target = target(c.module());
            String why = why(c, target);
            if (why != null) {
                String line = c.module() + " " + c.from() + " -> " + c.to() + ": " + why;
                notMeasured.add(line);
                if (target != null) {
                    unresolved.add(line); // a measured client's, its versions unread
                }
            } else {
                List<String> clients = SHARED.containsKey(target) ? SHARED.get(target).clients() : List.of(target);
                bumps.putIfAbsent(List.of(target, c.from(), c.to()), new Bump(target, c.from(), c.to(), clients));
            }
        }
        List<Bump> measured = new ArrayList<>(bumps.values());
        measured.sort(Comparator.comparingInt((Bump b) -> rank(b.dependency())).thenComparing(Bump::from)
                .thenComparing(Bump::to));
        return new DependencyDiff.Found(measured, List.copyOf(notMeasured), List.copyOf(unresolved));
    }

    /** The default client or shared library {@code module} moves, or null. */
    private static String target(String module) {
        if (OWN.containsKey(module)) {
            return OWN.get(module);
        }
        return module.startsWith(NETTY_GROUP) && !module.startsWith(NETTY_TCNATIVE) ? NETTY : null;
    }

    /** Why {@code c} is not measured, or null when it is. */
    private static String why(Declared.Change c, String target) {
        if (target != null) {
            if (c.from().contains("${") || c.to().contains("${")) {
                return "its version is not resolved here (a property from a parent outside the repository, or one"
                        + " property defined by another)";
            }
            return ClientBuild.isVersion(c.from()) && ClientBuild.isVersion(c.to()) ? null
                    : "not one version each side, as a build needs";
        }
        if (c.module().equals(REACTOR_BOM)) {
            return "Reactor's release train sets reactor-netty's version by a table of its own, not read here: ./bench"
                    + " upgrade reactor OLD NEW at reactor-netty's versions measures it";
        }
        if (c.module().startsWith(SPRING)) {
            return "Spring's clients are opt-in, not default: ./bench upgrade restclient-jdk OLD NEW (or another Spring"
                    + " client) measures it";
        }
        if (OPT_IN_ONLY.containsKey(c.module())) {
            return "only opt-in clients run on it (" + String.join(", ", OPT_IN_ONLY.get(c.module()))
                    + "), not the default ones a bump is measured on";
        }
        return c.bom() ? "a BOM or parent: the versions it manages are not read here" : "no measured client runs on it";
    }

    /** Bumps in the order of Adapters.names(), shared libraries after. */
    private static int rank(String target) {
        int i = Adapters.names().indexOf(target);
        return i < 0 ? Integer.MAX_VALUE : i;
    }

    private static Map<String, String> own() {
        Map<String, String> own = new LinkedHashMap<>();
        for (String client : Adapters.names()) {
            if (client.equals(ClientArtifacts.base(client))) {
                ClientArtifacts.of(client).forEach(module -> own.putIfAbsent(module, client));
            }
        }
        own.putAll(ALSO_OWN);
        return Map.copyOf(own);
    }

    private static Map<String, List<String>> optInOnly() {
        Map<String, List<String>> only = new LinkedHashMap<>();
        for (String client : Adapters.optIn()) {
            for (String module : ClientArtifacts.of(client)) {
                if (!OWN.containsKey(module) && !module.startsWith(SPRING)) {
                    only.computeIfAbsent(module, m -> new ArrayList<>()).add(client);
                }
            }
        }
        only.replaceAll((m, clients) -> List.copyOf(clients));
        return Map.copyOf(only);
    }
}
