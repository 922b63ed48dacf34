package clientbench.upgrade;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which measured clients a team's bump moves, read from a scratch git repository made here (two commits, HEAD~1..HEAD)
 * or from two files: a client's version property, its artifacts moving together, Netty's BOM under several clients,
 * a Gradle catalog in each form; what no default client measures is a line; nothing changed is nothing found.
 */
class DependencyDiffTest {

    /** The default clients on Netty, as mvn dependency:tree -Dverbose shows them (NettyClientsTest: as they record it). */
    static final List<String> NETTY_CLIENTS = List.of("ahc", "reactor", "vertx");

    @TempDir
    Path repo;

    @Test
    void anOkHttpPropertyBumpIsOneBumpOnOkHttp() throws Exception {
        commit(Map.of("pom.xml", pom("<okhttp.version>5.3.0</okhttp.version>",
                dependency("com.squareup.okhttp3", "okhttp-jvm", "${okhttp.version}"), "")));
        commit(Map.of("pom.xml", pom("<okhttp.version>5.5.1</okhttp.version>",
                dependency("com.squareup.okhttp3", "okhttp-jvm", "${okhttp.version}"), "")));

        DependencyDiff.Found found = DependencyDiff.between(repo, "HEAD~1", "HEAD");

        assertEquals(List.of(new Bump("okhttp", "5.3.0", "5.5.1", List.of("okhttp"))), found.measured());
        assertEquals(List.of(), found.notMeasured());
        Bump bump = found.measured().get(0);
        assertEquals("okhttp 5.3.0 -> 5.5.1", bump.words());
        assertEquals(1, bump.builds().size());
        ClientBuild[] pair = bump.builds().get(0);
        assertEquals(Map.of("okhttp.version", "5.3.0"), pair[0].properties());
        assertEquals(Map.of("okhttp.version", "5.5.1"), pair[1].properties());
        assertEquals("okhttp-5.5.1", pair[1].folderName());
    }

    @Test
    void aModulesVersionComesFromItsParentPomInTheRepository() throws Exception {
        String module = """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <parent><groupId>com.team</groupId><artifactId>service</artifactId><version>1</version></parent>
                  <artifactId>client</artifactId>
                  <dependencies>%s</dependencies>
                </project>""".formatted(dependency("org.asynchttpclient", "async-http-client", "${ahc.version}"));
        commit(Map.of("pom.xml", pom("<ahc.version>3.0.12</ahc.version>", "", ""), "client/pom.xml", module));
        commit(Map.of("pom.xml", pom("<ahc.version>3.0.13</ahc.version>", "", ""), "client/pom.xml", module));

        DependencyDiff.Found found = DependencyDiff.between(repo, "HEAD~1", "HEAD");

        assertEquals(List.of(new Bump("ahc", "3.0.12", "3.0.13", List.of("ahc"))), found.measured());
        assertEquals(List.of(), found.notMeasured());
        // Given a folder inside the repository: still every build file, by its path from the top.
        assertEquals(found, DependencyDiff.between(repo.resolve("client"), "HEAD~1", "HEAD"));
    }

    @Test
    void jettysArtifactsMovingTogetherAreOneBump() throws Exception {
        commit(Map.of("pom.xml", pom("", dependency("org.eclipse.jetty", "jetty-client", "12.1.13")
                + dependency("org.eclipse.jetty.http2", "jetty-http2-client-transport", "12.1.13"), "")));
        commit(Map.of("pom.xml", pom("", dependency("org.eclipse.jetty", "jetty-client", "12.1.14")
                + dependency("org.eclipse.jetty.http2", "jetty-http2-client-transport", "12.1.14"), "")));

        DependencyDiff.Found found = DependencyDiff.between(repo, "HEAD~1", "HEAD");

        assertEquals(List.of(new Bump("jetty", "12.1.13", "12.1.14", List.of("jetty"))), found.measured());
        assertEquals(Map.of("jetty.version", "12.1.14"), found.measured().get(0).builds().get(0)[1].properties());
        assertEquals(List.of(), found.notMeasured());
    }

    @Test
    void aNettyBomBumpIsMeasuredOnEveryClientOnNetty() throws Exception {
        commit(Map.of("pom.xml", pom("", "", bom("io.netty", "netty-bom", "4.2.17.Final"))));
        commit(Map.of("pom.xml", pom("", "", bom("io.netty", "netty-bom", "4.2.18.Final"))));

        DependencyDiff.Found found = DependencyDiff.between(repo, "HEAD~1", "HEAD");

        assertEquals(List.of(new Bump("netty", "4.2.17.Final", "4.2.18.Final", NETTY_CLIENTS)), found.measured());
        assertEquals(List.of(), found.notMeasured());
        Bump netty = found.measured().get(0);
        assertEquals("netty 4.2.17.Final -> 4.2.18.Final (ahc, reactor, vertx)", netty.words());
        List<String> folders = new ArrayList<>();
        for (ClientBuild[] pair : netty.builds()) {
            assertEquals(Map.of("netty.version", "4.2.17.Final"), pair[0].properties());
            assertEquals(Map.of("netty.version", "4.2.18.Final"), pair[1].properties());
            assertEquals("io.netty:netty-handler", pair[1].artifact());
            assertEquals("4.2.18.Final", pair[1].version());
            folders.add(pair[1].folderName());
        }
        assertEquals(List.of("ahc-netty-4.2.18.Final", "reactor-netty-4.2.18.Final", "vertx-netty-4.2.18.Final"), folders);
        assertEquals("ReactorNettyAdapterContractTest", netty.builds().get(1)[1].contractTest());
    }

    @Test
    void whatNoDefaultClientRunsOnIsALineEach() throws Exception {
        commit(Map.of("pom.xml", pom("", dependency("com.fasterxml.jackson.core", "jackson-databind", "2.18.0")
                + dependency("org.springframework", "spring-web", "7.0.9"),
                bom("io.projectreactor", "reactor-bom", "2025.0.0"))));
        commit(Map.of("pom.xml", pom("", dependency("com.fasterxml.jackson.core", "jackson-databind", "2.19.0")
                + dependency("org.springframework", "spring-web", "7.0.10"),
                bom("io.projectreactor", "reactor-bom", "2025.0.1"))));

        DependencyDiff.Found found = DependencyDiff.between(repo, "HEAD~1", "HEAD");

        assertEquals(List.of(), found.measured());
        assertEquals(List.of(), found.unresolved(), "none of them can be a measured client's bump");
        assertEquals(3, found.notMeasured().size(), found.notMeasured().toString());
        assertEquals("com.fasterxml.jackson.core:jackson-databind 2.18.0 -> 2.19.0: no measured client runs on it",
                found.notMeasured().get(0));
        assertTrue(found.notMeasured().get(1).startsWith("io.projectreactor:reactor-bom 2025.0.0 -> 2025.0.1: ")
                && found.notMeasured().get(1).contains("reactor-netty"), found.notMeasured().get(1));
        assertTrue(found.notMeasured().get(2).startsWith("org.springframework:spring-web 7.0.9 -> 7.0.10: ")
                && found.notMeasured().get(2).contains("opt-in"), found.notMeasured().get(2));
    }

    @Test
    void aBuildFileThatIsNoPomIsALineAndTheOthersAreRead() throws Exception {
        String template = "#set( $version = \"1\" )\n<project/>";
        commit(Map.of("pom.xml", pom("", dependency("io.vertx", "vertx-core", "5.2.2"), ""),
                "archetype/pom.xml", template));
        commit(Map.of("pom.xml", pom("", dependency("io.vertx", "vertx-core", "5.2.3"), ""),
                "archetype/pom.xml", template));

        DependencyDiff.Found found = DependencyDiff.between(repo, "HEAD~1", "HEAD");

        assertEquals(List.of(new Bump("vertx", "5.2.2", "5.2.3", List.of("vertx"))), found.measured());
        assertEquals(List.of(), found.notMeasured(), "the template did not change: it can hide no bump");
        // A template that changed may hide one: a line, and unresolved for a check.
        commit(Map.of("pom.xml", pom("", dependency("io.vertx", "vertx-core", "5.2.3"), ""),
                "archetype/pom.xml", template + "\n"));
        found = DependencyDiff.between(repo, "HEAD~1", "HEAD");
        assertEquals(1, found.notMeasured().size(), found.notMeasured().toString());
        assertTrue(found.notMeasured().get(0).startsWith("HEAD~1:archetype/pom.xml is not a readable pom: "),
                found.notMeasured().get(0));
        assertEquals(found.notMeasured(), found.unresolved());
    }

    @Test
    void aVersionThatWentDownIsABumpAsGiven(@TempDir Path files) throws Exception {
        Path old = files.resolve("old.xml");
        Path now = files.resolve("new.xml");
        Files.writeString(old, pom("", dependency("org.apache.httpcomponents.client5", "httpclient5", "5.6.5"), ""));
        Files.writeString(now, pom("", dependency("org.apache.httpcomponents.client5", "httpclient5", "5.5.1"), ""));

        assertEquals(List.of(new Bump("apache", "5.6.5", "5.5.1", List.of("apache"))),
                DependencyDiff.between(old, now).measured());
    }

    @Test
    void aGradleCatalogIsReadInEachForm() throws Exception {
        commit(Map.of("gradle/libs.versions.toml", catalog("5.3.0", "12.1.13", "3.0.12", "5.2.2", "4.2.17.Final")));
        commit(Map.of("gradle/libs.versions.toml", catalog("5.5.1", "12.1.14", "3.0.13", "5.2.3", "4.2.18.Final")));

        DependencyDiff.Found found = DependencyDiff.between(repo, "HEAD~1", "HEAD");

        assertEquals(List.of(new Bump("ahc", "3.0.12", "3.0.13", List.of("ahc")),
                new Bump("jetty", "12.1.13", "12.1.14", List.of("jetty")),
                new Bump("okhttp", "5.3.0", "5.5.1", List.of("okhttp")),
                new Bump("vertx", "5.2.2", "5.2.3", List.of("vertx")),
                new Bump("netty", "4.2.17.Final", "4.2.18.Final", NETTY_CLIENTS)), found.measured());
        assertEquals(List.of("com.fasterxml.jackson.core:jackson-databind 2.18.0 -> 2.19.0: no measured client runs on it"),
                found.notMeasured());
    }

    @Test
    void nothingChangedIsNothingFound() throws Exception {
        String pom = pom("<okhttp.version>5.3.0</okhttp.version>",
                dependency("com.squareup.okhttp3", "okhttp-jvm", "${okhttp.version}"), "");
        commit(Map.of("pom.xml", pom, "README.md", "one"));
        commit(Map.of("pom.xml", pom, "README.md", "two"));

        assertEquals(new DependencyDiff.Found(List.of(), List.of(), List.of()), DependencyDiff.between(repo, "HEAD~1", "HEAD"));
    }

    @Test
    void aBadRevisionOrRepositoryIsOneLineNamingIt(@TempDir Path notGit) throws Exception {
        commit(Map.of("pom.xml", pom("", "", "")));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DependencyDiff.between(repo, "HEAD", "no-such-branch"));
        assertTrue(e.getMessage().contains("'no-such-branch'"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());

        e = assertThrows(IllegalArgumentException.class, () -> DependencyDiff.between(notGit, "HEAD~1", "HEAD"));
        assertTrue(e.getMessage().startsWith(notGit + " is not a git repository"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void aRangeIsTwoRevisionsSeparatedByTwoDots() {
        assertArrayEquals(new String[] {"v1.2", "HEAD~1"}, DependencyDiff.range("v1.2..HEAD~1"));
        for (String bad : new String[] {"main", "a...b", "..b", "a..", "-x..b", "a..b..c", "a b..c", "a:pom.xml..b"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DependencyDiff.range(bad), bad);
            assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
    }

    @Test
    void twoFilesGivenDirectly(@TempDir Path files) throws Exception {
        Path old = files.resolve("old/pom.xml");
        Path now = files.resolve("new/pom.xml");
        Files.createDirectories(old.getParent());
        Files.createDirectories(now.getParent());
        Files.writeString(old, pom("<rn>1.3.7</rn>", dependency("io.projectreactor.netty", "reactor-netty-http", "${rn}")
                + dependency("io.helidon.webclient", "helidon-webclient", "4.4.1"), ""));
        Files.writeString(now, pom("<rn>1.3.8</rn>", dependency("io.projectreactor.netty", "reactor-netty-http", "${rn}")
                + dependency("io.helidon.webclient", "helidon-webclient", "4.5.0"), ""));

        assertEquals(new DependencyDiff.Found(List.of(new Bump("reactor", "1.3.7", "1.3.8", List.of("reactor")),
                new Bump("helidon", "4.4.1", "4.5.0", List.of("helidon"))), List.of(), List.of()),
                DependencyDiff.between(old, now));
        Path toml = files.resolve("libs.versions.toml");
        Files.writeString(toml, "[versions]\n");
        assertThrows(IllegalArgumentException.class, () -> DependencyDiff.between(old, toml));
    }

    private static String pom(String properties, String dependencies, String managed) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>com.team</groupId>
                  <artifactId>service</artifactId>
                  <version>1</version>
                  <properties>%s</properties>
                  <dependencyManagement><dependencies>%s</dependencies></dependencyManagement>
                  <dependencies>%s</dependencies>
                </project>
                """.formatted(properties, managed, dependencies);
    }

    private static String dependency(String group, String artifact, String version) {
        return "<dependency><groupId>%s</groupId><artifactId>%s</artifactId><version>%s</version></dependency>"
                .formatted(group, artifact, version);
    }

    private static String bom(String group, String artifact, String version) {
        return "<dependency><groupId>%s</groupId><artifactId>%s</artifactId><version>%s</version><type>pom</type>"
                .formatted(group, artifact, version) + "<scope>import</scope></dependency>";
    }

    /** Each form Gradle takes: version.ref by module and by group/name, a string, a version, a rich version. */
    private static String catalog(String okhttp, String jetty, String ahc, String vertx, String netty) {
        return """
                [versions]
                okhttp = "%s"
                jetty = "%s"
                jackson = { strictly = "%s" }

                [libraries]
                okhttp = { module = "com.squareup.okhttp3:okhttp", version.ref = "okhttp" }
                jetty-client = { group = "org.eclipse.jetty", name = "jetty-client", version.ref = "jetty" }
                ahc = "org.asynchttpclient:async-http-client:%s"
                vertx = { module = "io.vertx:vertx-core", version = "%s" }
                netty-bom = { group = "io.netty", name = "netty-bom", version = { strictly = "%s" } }
                jackson = { module = "com.fasterxml.jackson.core:jackson-databind", version.ref = "jackson" }
                """.formatted(okhttp, jetty, okhttp.equals("5.3.0") ? "2.18.0" : "2.19.0", ahc, vertx, netty);
    }

    /** Writes {@code files} into the scratch repository and commits them all. */
    private void commit(Map<String, String> files) throws IOException, InterruptedException {
        if (!Files.isDirectory(repo.resolve(".git"))) {
            git("init", "-q");
        }
        for (Map.Entry<String, String> f : files.entrySet()) {
            Path p = repo.resolve(f.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, f.getValue());
        }
        git("add", "-A");
        git("-c", "user.name=clientbench", "-c", "user.email=test@clientbench.invalid", "-c", "commit.gpgsign=false",
                "commit", "-q", "--allow-empty", "-m", "a commit");
    }

    private void git(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-C", repo.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), String.join(" ", command) + ": " + out);
    }
}
