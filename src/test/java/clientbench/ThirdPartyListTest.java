package clientbench;

import clientbench.jvm.Maven;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * THIRD-PARTY.md names every library the benchmark jar bundles, at the version it bundles: the other count is the
 * build's own list of its run-time class path, clientbench/dependencies.txt, which the dependency plugin writes.
 */
class ThirdPartyListTest {

    static final Path LIST = Path.of(System.getProperty("user.dir"), "THIRD-PARTY.md");
    /** One row of the list's table: library, `group:artifact:version`, licence. */
    static final Pattern ROW = Pattern.compile("\\| .+ \\| `([^`]+)` \\| .+ \\|");

    @Test
    void namesEveryBundledLibraryAtTheVersionBundled() throws IOException {
        TreeSet<String> listed = new TreeSet<>();
        for (String line : Files.readAllLines(LIST)) {
            Matcher row = ROW.matcher(line);
            if (row.matches()) {
                listed.add(row.group(1));
            }
        }
        TreeSet<String> bundled = new TreeSet<>();
        try (InputStream in = getClass().getResourceAsStream("/clientbench/dependencies.txt")) {
            assertNotNull(in, "clientbench/dependencies.txt on the class path (mvn generate-resources writes it)");
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList()) {
                // group:artifact:type[:classifier]:version:scope, then perhaps " -- module name"
                String[] parts = Maven.uncoloured(line).replaceAll(" -- .*", "").strip().split(":");
                if (parts.length >= 5) {
                    bundled.add(parts[0] + ":" + parts[1] + ":" + parts[parts.length - 2]);
                }
            }
        }
        assertTrue(bundled.size() > 50, "the build's list was read: " + bundled);
        TreeSet<String> missing = new TreeSet<>(bundled);
        missing.removeAll(listed);
        TreeSet<String> stale = new TreeSet<>(listed);
        stale.removeAll(bundled);
        String regenerate = " (mvn license:add-third-party writes it anew)";
        assertEquals("", String.join("\n", missing), "bundled but not in THIRD-PARTY.md" + regenerate);
        assertEquals("", String.join("\n", stale), "in THIRD-PARTY.md but not bundled" + regenerate);
    }
}
