package clientbench.startup;

import clientbench.jvm.Maven;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads the file that {@code mvn dependency:list -DoutputAbsoluteArtifactFilename=true -DoutputFile=F} writes: after
 * its header, one line per artifact, {@code group:artifact:type[:classifier]:version:scope:/path/to.jar}, optionally
 * followed by {@code (optional)} and {@code -- module name}; {@code none} when there is none.
 */
final class DependencyList {

    private static final Set<String> SCOPES = Set.of("compile", "runtime", "provided", "system", "test");

    private DependencyList() {
    }

    /**
     * One resolved artifact ({@code group:artifact:type[:classifier]:version}), its Maven scope and its jar in the
     * local repository.
     */
    record Entry(String artifact, String scope, String file) {
    }

    static List<Entry> parse(List<String> lines) {
        List<Entry> out = new ArrayList<>();
        for (String raw : lines) {
            String line = Maven.uncoloured(raw).strip(); // Maven colours the file when it runs on a terminal
            int module = line.indexOf(" -- ");
            line = (module >= 0 ? line.substring(0, module) : line).replace(" (optional)", "").strip();
            String[] parts = line.split(":");
            int scope = -1;
            for (int i = 3; i < parts.length - 1 && scope < 0; i++) {
                scope = SCOPES.contains(parts[i]) ? i : -1;
            }
            if (scope < 0) {
                continue; // the header, "none", a blank line
            }
            out.add(new Entry(String.join(":", List.of(parts).subList(0, scope)), parts[scope],
                    String.join(":", List.of(parts).subList(scope + 1, parts.length))));
        }
        return out;
    }
}
