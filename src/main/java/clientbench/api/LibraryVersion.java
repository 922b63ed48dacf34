package clientbench.api;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Reads a library's version from its jar (Maven's pom.properties, else the manifest), never typed. */
public final class LibraryVersion {

    private LibraryVersion() {
    }

    /**
     * @param anchor a class from the library's jar
     * @param groupId Maven group id
     * @param artifactId Maven artifact id
     * @return {@code groupId:artifactId:version}, or {@code :unknown} when the jar says nothing
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
        return groupId + ":" + artifactId + ":" + (version == null ? "unknown" : version);
    }
}
