package clientbench.startup;

import clientbench.jvm.Jdk;
import clientbench.jvm.Maven;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;

/**
 * Resolves artifacts alone, as a project depending on nothing else would get them: a pom of their own under
 * {@code target/footprint/<name>/} and {@code mvn dependency:list} (run-time scope) on the run's JDK, which profiles
 * may depend on. Cached by the pom's content and the JDK's feature version, so Maven runs once per set of versions.
 */
final class MavenResolver {

    static final String PROPERTIES = "footprint.properties";
    private static final long TIMEOUT_MINUTES = 5;
    private static final String LIST = "dependencies.txt";
    private static final String KEY = "key.sha256";

    private MavenResolver() {
    }

    /** The maven-dependency-plugin's version, as the pom gives it to the build (resource filtering). */
    static String pluginVersion() {
        try (InputStream in = MavenResolver.class.getResourceAsStream(PROPERTIES)) {
            if (in == null) {
                throw new IllegalStateException(PROPERTIES + " is missing beside " + MavenResolver.class.getName());
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("dependencyPlugin");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param name the folder's name under target/footprint/
     * @param coordinates {@code groupId:artifactId:version}, each a dependency of the pom
     * @throws IllegalStateException when Maven fails, with its last lines
     */
    static List<DependencyList.Entry> resolve(String name, List<String> coordinates, Jdk jdk, Path root)
            throws IOException, InterruptedException {
        Path dir = root.toAbsolutePath().normalize().resolve("target").resolve("footprint").resolve(name);
        Files.createDirectories(dir);
        String pom = pom(name, coordinates);
        String key = sha256(pom + "\njava " + jdk.feature() + "\nplugin " + pluginVersion());
        Path list = dir.resolve(LIST);
        Path keyFile = dir.resolve(KEY);
        if (Files.isRegularFile(list) && Files.isRegularFile(keyFile) && Files.readString(keyFile).strip().equals(key)) {
            return DependencyList.parse(Files.readAllLines(list));
        }
        Files.writeString(dir.resolve("pom.xml"), pom);
        Path tmp = dir.resolve(LIST + ".tmp");
        Files.deleteIfExists(tmp);
        run(dir, jdk, tmp);
        Files.move(tmp, list, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Files.writeString(keyFile, key + "\n");
        return DependencyList.parse(Files.readAllLines(list));
    }

    private static void run(Path dir, Jdk jdk, Path out) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("-B", "-q", "-Dstyle.color=never", "-f", dir.resolve("pom.xml").toString(),
                "org.apache.maven.plugins:maven-dependency-plugin:" + pluginVersion() + ":list",
                "-DincludeScope=runtime", "-DoutputAbsoluteArtifactFilename=true", "-Dsort=true", "-DoutputFile=" + out));
        int exit;
        try {
            exit = Maven.run(cmd, jdk, dir.resolve("mvn.log"), Duration.ofMinutes(TIMEOUT_MINUTES));
        } catch (IOException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        if (exit == Maven.TIMED_OUT) {
            throw new IllegalStateException("mvn dependency:list took over " + TIMEOUT_MINUTES + " min; see " + dir.resolve("mvn.log"));
        }
        if (exit != 0 || !Files.isRegularFile(out)) {
            throw new IllegalStateException("mvn dependency:list failed: "
                    + clientbench.jvm.MavenFailure.why(Files.readAllLines(dir.resolve("mvn.log"))));
        }
    }

    /** A project of the given dependencies alone, at the given versions; nothing inherited. */
    static String pom(String name, List<String> coordinates) {
        StringBuilder deps = new StringBuilder();
        for (String c : coordinates) {
            String[] g = c.split(":");
            deps.append("    <dependency><groupId>").append(g[0]).append("</groupId><artifactId>").append(g[1])
                    .append("</artifactId><version>").append(g[2]).append("</version></dependency>\n");
        }
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <!-- Written by clientbench (./bench startup): the client's own artifacts alone, to list what they bring. -->
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>clientbench.footprint</groupId>
                  <artifactId>%s</artifactId>
                  <version>0</version>
                  <packaging>pom</packaging>
                  <dependencies>
                %s  </dependencies>
                </project>
                """.formatted(name, deps);
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
