package clientbench.upgrade;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The versions a Gradle version catalog ({@code libs.versions.toml}) gives its {@code [libraries]}, in each form Gradle
 * takes: {@code "g:a:v"}, {@code module = "g:a"} or {@code group}/{@code name}, with {@code version = "v"},
 * {@code version.ref = "key"} into {@code [versions]}, or a rich version (strictly, require, prefer).
 */
final class CatalogVersions {

    private static final TomlMapper TOML = new TomlMapper();

    private CatalogVersions() {
    }

    /** What {@code catalog} ({@code name} in messages) names; a library without a version is left out. */
    static Declared of(String catalog, String name) {
        JsonNode root;
        try {
            root = TOML.readTree(catalog);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(name + " is not a readable version catalog: " + e.getOriginalMessage(),
                    e);
        }
        JsonNode refs = root.path("versions");
        Map<String, String> versions = new LinkedHashMap<>();
        Set<String> boms = new HashSet<>();
        for (Map.Entry<String, JsonNode> library : root.path("libraries").properties()) {
            JsonNode l = library.getValue();
            String module;
            String version;
            if (l.isTextual()) {
                String[] gav = l.asText().split(":");
                module = gav.length >= 2 ? gav[0] + ":" + gav[1] : null;
                version = gav.length == 3 ? gav[2] : null;
            } else {
                module = l.has("module") ? l.path("module").asText()
                        : l.has("group") && l.has("name") ? l.path("group").asText() + ":" + l.path("name").asText()
                        : null;
                JsonNode v = l.path("version");
                version = v.has("ref") ? version(refs.path(v.path("ref").asText())) : version(v);
            }
            if (module != null && version != null) {
                versions.putIfAbsent(module, version);
                if (module.endsWith("-bom")) {
                    boms.add(module); // a platform(...) in the build script, which a catalog does not say
                }
            }
        }
        return new Declared(versions, boms);
    }

    /** A version as written, or a rich version's strictly, require or prefer; null for none. */
    private static String version(JsonNode v) {
        if (v.isTextual()) {
            return v.asText();
        }
        for (String kind : new String[] {"strictly", "require", "prefer"}) {
            if (v.path(kind).isTextual()) {
                return v.path(kind).asText();
            }
        }
        return null;
    }
}
