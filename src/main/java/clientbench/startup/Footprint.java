package clientbench.startup;

import clientbench.adapters.Adapters;
import clientbench.api.LibraryVersion;
import clientbench.harness.record.JsonFiles;
import clientbench.jvm.Jdk;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What each client brings to a project: its own artifacts ({@link ClientArtifacts}) at this build's versions and all
 * they pull in at run time as a project's only dependencies (not the suite's converged set), in artifacts and jar
 * bytes. Written as {@code footprint.json} and {@code footprint/<client>.txt}.
 */
public final class Footprint {

    public static final String FILE = "footprint.json";
    public static final String LISTS = "footprint";

    private Footprint() {
    }

    /**
     * {@code footprint.json}: how the lists were made, the maven-dependency-plugin's version, the JDK Maven ran on (a
     * dependency's profile may depend on it), and each client in the order given ({@code noop} has none).
     */
    public record Result(String how, String dependencyPlugin, int javaFeature, Map<String, Client> clients) {
    }

    /**
     * One client's footprint: its own artifacts; the count and jar bytes of all it brings, its own included; its plain
     * list, relative to the run folder; every dependency; {@code failure}: why there is no list (Maven failed, a
     * version unknown), else null.
     */
    public record Client(List<String> artifacts, int count, long bytes, String list, List<Dependency> dependencies, String failure) {
    }

    /**
     * @param artifact {@code group:artifact:type[:classifier]:version}
     * @param scope its Maven scope
     * @param bytes its jar's size
     */
    public record Dependency(String artifact, String scope, long bytes) {
    }

    /** Lists every client's footprint into {@code runDir}; one line per client on {@code progress}. */
    public static Result write(List<String> clients, Path runDir, Jdk jdk, Path root, PrintStream progress)
            throws IOException, InterruptedException {
        Map<String, Client> out = new LinkedHashMap<>();
        Files.createDirectories(runDir.resolve(LISTS));
        for (String c : clients) {
            if (Adapters.NOOP.equals(c)) {
                continue;
            }
            Client f = of(c, jdk, root);
            out.put(c, f);
            Path list = runDir.resolve(f.list());
            List<String> lines = new ArrayList<>(List.of("# " + c + ": " + f.count() + " artifacts, " + f.bytes()
                    + " bytes of jars; its own: " + String.join(", ", f.artifacts())));
            f.dependencies().forEach(d -> lines.add(d.artifact() + " " + d.bytes()));
            if (f.failure() != null) {
                lines.add("# no list: " + f.failure());
            }
            Files.write(list, lines);
            progress.println(f.failure() == null
                    ? String.format(Locale.ROOT, "footprint %-10s %3d artifacts, %6.1f MB", c, f.count(), f.bytes() / 1e6)
                    : "footprint " + c + ": " + f.failure());
        }
        Result r = new Result("each client's own artifacts at the versions this build resolved, alone in a pom of their"
                + " own: mvn dependency:list, run-time scope; bytes of the jars in the local repository",
                MavenResolver.pluginVersion(), jdk.feature(), out);
        JsonFiles.writeAtomically(runDir.resolve(FILE), r);
        return r;
    }

    /** One client's footprint: none for a client of the JDK's; a failure named, never thrown. */
    static Client of(String client, Jdk jdk, Path root) throws IOException, InterruptedException {
        String list = LISTS + "/" + client + ".txt";
        List<String> own = new ArrayList<>();
        for (String ga : ClientArtifacts.of(client)) {
            String[] g = ga.split(":");
            String version = LibraryVersion.resolved(g[0], g[1]);
            if (version == null) {
                return new Client(List.of(ga), 0, 0, list, List.of(), ga + " is not in the build's resolved list");
            }
            own.add(ga + ":" + version);
        }
        if (own.isEmpty()) {
            return new Client(own, 0, 0, list, List.of(), null);
        }
        List<DependencyList.Entry> entries;
        try {
            entries = MavenResolver.resolve(ClientArtifacts.base(client), own, jdk, root);
        } catch (IllegalStateException e) {
            return new Client(own, 0, 0, list, List.of(), e.getMessage());
        }
        List<Dependency> deps = new ArrayList<>();
        long bytes = 0;
        for (DependencyList.Entry e : entries) {
            long size = Files.size(Path.of(e.file()));
            deps.add(new Dependency(e.artifact(), e.scope(), size));
            bytes += size;
        }
        return new Client(own, deps.size(), bytes, list, deps, null);
    }
}
