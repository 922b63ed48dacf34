package clientbench.api;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Properties;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Reads a library's version from its jar, never typed: pom.properties, else the manifest, else the version Maven
 * resolved for the build ({@code clientbench/dependencies.txt}). The last is for libraries whose only record is their
 * manifest (reactor-netty-http, vertx-core), which shading replaces with the benchmark jar's own.
 */
public final class LibraryVersion {

    /** The build's resolved run-time dependencies, one per line ({@code group:artifact:type:version:scope}). */
    static final String RESOLVED = "/clientbench/dependencies.txt";

    private LibraryVersion() {
    }

    /**
     * {@code groupId:artifactId:version} for the library whose jar holds {@code anchor}; the version is {@code unknown}
     * when neither the jar nor the build says.
     */
    public static String of(Class<?> anchor, String groupId, String artifactId) {
        String path = "/META-INF/maven/" + groupId + "/" + artifactId + "/pom.properties";
        String version = null;
        try (InputStream in = anchor.getResourceAsStream(path)) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                version = p.getProperty("version");
            }
        } catch (IOException ignored) {
            // fall through to the manifest
        }
        if (version == null && anchor.getPackage() != null) {
            version = anchor.getPackage().getImplementationVersion();
        }
        if (version == null) {
            version = resolved(groupId, artifactId);
        }
        return groupId + ":" + artifactId + ":" + (version == null ? "unknown" : version);
    }

    /** The version the build resolved for {@code groupId:artifactId}, or null when the list or the entry is missing. */
    public static String resolved(String groupId, String artifactId) {
        try (InputStream in = LibraryVersion.class.getResourceAsStream(RESOLVED)) {
            return in == null ? null : resolved(in, groupId, artifactId);
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * The version that the benchmark jar {@code jar} (another build's) was shaded from for {@code groupId:artifactId},
     * from its own {@code clientbench/dependencies.txt}; null when the jar has no such list or entry.
     */
    public static String resolvedIn(Path jar, String groupId, String artifactId) throws IOException {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            ZipEntry list = zip.getEntry(RESOLVED.substring(1));
            if (list == null) {
                return null;
            }
            try (InputStream in = zip.getInputStream(list)) {
                return resolved(in, groupId, artifactId);
            }
        }
    }

    private static String resolved(InputStream list, String groupId, String artifactId) throws IOException {
        BufferedReader lines = new BufferedReader(new InputStreamReader(list, StandardCharsets.UTF_8));
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            String version = versionIn(line, groupId, artifactId);
            if (version != null) {
                return version;
            }
        }
        return null;
    }

    /**
     * The version in one line of {@code mvn dependency:list}'s output ({@code io.vertx:vertx-core:jar:5.0.5:compile});
     * a classifier comes before the version, colour codes and a {@code -- module} suffix may follow. Null unless the
     * line names {@code groupId:artifactId}.
     */
    static String versionIn(String line, String groupId, String artifactId) {
        // Maven writes the file with its console colours when the build runs on a terminal.
        String coordinates = line.replaceAll("\u001B\\[[0-9;]*m", "").strip();
        int module = coordinates.indexOf(" -- ");
        if (module >= 0) {
            coordinates = coordinates.substring(0, module).strip();
        }
        String[] parts = coordinates.split(":");
        if (parts.length < 5 || !parts[0].equals(groupId) || !parts[1].equals(artifactId)) {
            return null;
        }
        return parts[parts.length - 2];
    }
}
