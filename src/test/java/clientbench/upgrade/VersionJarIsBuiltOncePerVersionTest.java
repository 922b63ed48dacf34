package clientbench.upgrade;

import clientbench.jvm.Jdk;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A version's jar is built by Maven into a folder of its own, once: taken from the cache while neither the sources nor
 * the version change, built again when a source does; a failed build, a jar of another version or a contract test
 * that did not run leave no cache and are refused in one line. Maven is a fake that counts its runs.
 */
class VersionJarIsBuiltOncePerVersionTest {

    @TempDir
    Path root;
    private final FakeMaven maven = new FakeMaven();
    private final Jdk jdk = Jdk.current();

    @BeforeEach
    void project() throws Exception {
        Files.writeString(root.resolve("pom.xml"), "<project/>");
        Files.createDirectories(root.resolve("src/main/java"));
        Files.writeString(root.resolve("src/main/java/A.java"), "class A {}");
        Files.createDirectories(root.resolve("target"));
        Files.writeString(root.resolve("target/benchmarks.jar"), "the project's own jar");
    }

    @Test
    void aVersionIsBuiltOnceThenTakenFromItsFolder() throws Exception {
        ClientBuild b = ClientBuild.of("apache", "5.4.4");
        VersionJar.Built first = VersionJar.of(b, root, jdk, maven);
        VersionJar.Built again = VersionJar.of(b, root, jdk, maven);
        assertEquals(1, maven.runs);
        assertFalse(first.cached());
        assertTrue(again.cached());
        assertEquals(root.resolve("target/upgrade/apache-5.4.4/benchmarks.jar").toAbsolutePath().normalize(), again.jar());
        assertEquals("5.4.4", again.version()); // read from the jar's dependency list
    }

    @Test
    void eachVersionHasAFolderOfItsOwnAndTheProjectsJarIsLeftAlone() throws Exception {
        VersionJar.Built old = VersionJar.of(ClientBuild.of("apache", "5.4.4"), root, jdk, maven);
        VersionJar.Built neu = VersionJar.of(ClientBuild.of("apache", "5.6.5"), root, jdk, maven);
        assertEquals(2, maven.runs);
        assertTrue(Files.isRegularFile(old.jar()) && Files.isRegularFile(neu.jar()));
        assertEquals("5.6.5", neu.version());
        assertEquals("the project's own jar", Files.readString(root.resolve("target/benchmarks.jar")));
    }

    @Test
    void aChangedSourceBuildsTheJarAgain() throws Exception {
        ClientBuild b = ClientBuild.of("apache", "5.4.4");
        VersionJar.of(b, root, jdk, maven);
        Files.writeString(root.resolve("src/main/java/A.java"), "class A { int changed; }");
        assertFalse(VersionJar.of(b, root, jdk, maven).cached());
        assertEquals(2, maven.runs);
    }

    @Test
    void aFailedBuildIsRefusedInOneLineNamingTheVersionAndLeavesNoCache() throws Exception {
        maven.failure = List.of("[ERROR] COMPILATION ERROR : ",
                "[ERROR] " + root + "/src/main/java/clientbench/adapters/apache/ApacheClients.java:[42,17] cannot find symbol",
                "[ERROR]   symbol:   class ConnectionConfig");
        ClientBuild b = ClientBuild.of("apache", "5.0");
        VersionJar.Refused e = assertThrows(VersionJar.Refused.class, () -> VersionJar.of(b, root, jdk, maven));
        assertTrue(e.getMessage().startsWith("apache 5.0: the adapter does not compile against it: ApacheClients.java:42:"
                + " cannot find symbol (symbol: class ConnectionConfig)"), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
        maven.failure = null;
        assertFalse(VersionJar.of(b, root, jdk, maven).cached());
        assertEquals(2, maven.runs);
    }

    @Test
    void aJarHoldingAnotherVersionThanAskedIsRefused() throws Exception {
        maven.recorded = "5.4.3";
        VersionJar.Refused e = assertThrows(VersionJar.Refused.class,
                () -> VersionJar.of(ClientBuild.of("apache", "5.4.4"), root, jdk, maven));
        assertTrue(e.getMessage().contains("resolved org.apache.httpcomponents.client5:httpclient5 5.4.3"), e.getMessage());
    }

    @Test
    void aContractTestThatRanNoCaseIsRefused() throws Exception {
        maven.tests = 0;
        VersionJar.Refused e = assertThrows(VersionJar.Refused.class,
                () -> VersionJar.of(ClientBuild.of("apache", "5.4.4"), root, jdk, maven));
        assertTrue(e.getMessage().contains("ApacheAdapterContractTest did not run"), e.getMessage());
        assertFalse(Files.exists(VersionJar.folder(root, ClientBuild.of("apache", "5.4.4")).resolve(VersionJar.KEY)));
    }
}
