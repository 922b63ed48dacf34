package clientbench.upgrade;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The versions one build file names: {@code groupId:artifactId} to version, and which of those modules are BOMs or
 * parents (they move versions this file does not name, which are not read).
 */
record Declared(Map<String, String> versions, Set<String> boms) {

    Declared {
        versions = Map.copyOf(versions);
        boms = Set.copyOf(boms);
    }

    /** One module whose version differs between two files: down as well as up. */
    record Change(String module, String from, String to, boolean bom) {
    }

    /** The modules both files name, at different versions: a module only one of them names is no bump. */
    List<Change> changesTo(Declared newer) {
        List<Change> changes = new ArrayList<>();
        for (Map.Entry<String, String> old : versions.entrySet()) {
            String now = newer.versions.get(old.getKey());
            if (now != null && !now.equals(old.getValue())) {
                changes.add(new Change(old.getKey(), old.getValue(), now,
                        boms.contains(old.getKey()) || newer.boms.contains(old.getKey())));
            }
        }
        return changes;
    }
}
