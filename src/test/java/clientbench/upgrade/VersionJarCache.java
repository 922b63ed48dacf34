package clientbench.upgrade;

import clientbench.jvm.Jdk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * For tests that measure rather than build: puts a jar built from the same sources at the same version (the
 * project's own, after mvn package, whose contract tests ran in the same mvn verify) where {@link VersionJar} keeps
 * that version's, with its key, so that it is taken from the cache.
 */
public final class VersionJarCache {

    private VersionJarCache() {
    }

    public static void seed(ClientBuild b, Path root, Path jar) throws IOException {
        Path dir = Files.createDirectories(VersionJar.folder(root, b));
        Files.copy(jar, dir.resolve(VersionJar.JAR), StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(dir.resolve(VersionJar.KEY), VersionJar.key(root, b, Jdk.current()) + "\n");
    }
}
