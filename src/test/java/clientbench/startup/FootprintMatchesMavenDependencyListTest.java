package clientbench.startup;

import clientbench.adapters.Adapters;
import clientbench.api.LibraryVersion;
import clientbench.jvm.Jdk;
import clientbench.testkit.Prerequisites;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client's footprint is what Maven itself lists for a project of that client alone, asked here separately (its
 * console output, not the file the footprint reads); a -vt client brings its base's; java.net.http brings none; and
 * every registered client has its artifacts listed, each one the build resolved.
 */
@Timeout(600)
class FootprintMatchesMavenDependencyListTest {

    @TempDir
    Path root;

    @Test
    void okhttpsListIsMavensDependencyList() throws Exception {
        Prerequisites.require(onPath("mvn"), "Maven on PATH (Debian: apt-get install maven)");
        Footprint.Client f = Footprint.of("okhttp", Jdk.current(), root);
        assertNull(f.failure(), f.failure());

        String version = LibraryVersion.resolved("com.squareup.okhttp3", "okhttp-jvm");
        Path own = Files.createDirectories(root.resolve("by-hand"));
        Files.writeString(own.resolve("pom.xml"), """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>test</groupId><artifactId>by-hand</artifactId><version>1</version><packaging>pom</packaging>
                  <dependencies>
                    <dependency><groupId>com.squareup.okhttp3</groupId><artifactId>okhttp-jvm</artifactId><version>%s</version></dependency>
                  </dependencies>
                </project>
                """.formatted(version));
        Process p = new ProcessBuilder("mvn", "-B", "-Dstyle.color=never", "-f", own.resolve("pom.xml").toString(),
                "org.apache.maven.plugins:maven-dependency-plugin:" + MavenResolver.pluginVersion() + ":list",
                "-DincludeScope=runtime").redirectErrorStream(true).start();
        String console = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), console);
        Set<String> maven = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^\\[INFO\\]\\s+([\\w.-]+:[\\w.-]+:jar(?::[\\w.-]+)?:[\\w.-]+):(compile|runtime)").matcher(console);
        while (m.find()) {
            maven.add(m.group(1));
        }
        assertTrue(maven.contains("com.squareup.okhttp3:okhttp-jvm:jar:" + version), console);
        Set<String> ours = new TreeSet<>();
        f.dependencies().forEach(d -> ours.add(d.artifact()));
        assertEquals(maven, ours);
        assertEquals(maven.size(), f.count());
        assertEquals(f.dependencies().stream().mapToLong(Footprint.Dependency::bytes).sum(), f.bytes());
        assertTrue(f.dependencies().stream().allMatch(d -> d.bytes() > 0), f.dependencies().toString());

        Path list = root.resolve("target/footprint/okhttp/dependencies.txt");
        FileTime listed = Files.getLastModifiedTime(list);
        Footprint.Client vt = Footprint.of("okhttp-vt", Jdk.current(), root);
        assertEquals(f.dependencies(), vt.dependencies(), "okhttp-vt brings what okhttp brings");
        assertEquals(listed, Files.getLastModifiedTime(list), "the same versions: Maven not run again");
    }

    @Test
    void theJdksClientBringsNothing() throws Exception {
        for (String c : List.of("jdk", "jdk-vt")) {
            Footprint.Client f = Footprint.of(c, Jdk.current(), root);
            assertEquals(0, f.count(), c);
            assertEquals(List.of(), f.dependencies(), c);
            assertNull(f.failure());
        }
        assertTrue(Files.notExists(root.resolve("target/footprint")), "no Maven for them");
    }

    @Test
    void everyClientHasItsArtifactsEachResolvedByTheBuild() {
        for (String c : Adapters.names()) {
            for (String ga : ClientArtifacts.of(c)) {
                String[] g = ga.split(":");
                assertNotNull(LibraryVersion.resolved(g[0], g[1]), c + ": " + ga + " in clientbench/dependencies.txt");
            }
        }
    }

    private static boolean onPath(String command) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, command))) {
                return true;
            }
        }
        return false;
    }
}
