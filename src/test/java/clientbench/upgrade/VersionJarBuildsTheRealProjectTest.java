package clientbench.upgrade;

import clientbench.api.LibraryVersion;
import clientbench.jvm.Jdk;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The jar-per-version build with the real Maven on this project (linked into a folder of its own, target/ the test's):
 * the pom's apache version builds, passes its contract test, then comes from the cache without Maven; OkHttp 4, which
 * the upper-bound rule refuses, fails in one line naming it and leaves nothing to measure.
 */
@Tag("reliability") // Maven builds the project twice over: minutes, not seconds
@Timeout(900)
class VersionJarBuildsTheRealProjectTest {
    static final Path REPO = Path.of(System.getProperty("user.dir"));

    @TempDir
    Path root;

    /** Maven as the command runs it, counting its runs. */
    static final class Counted implements VersionJar.Maven {
        final VersionJar.Maven maven = VersionJar.maven(Jdk.current());
        int runs;

        @Override
        public int run(List<String> args, Path log) throws java.io.IOException, InterruptedException {
            runs++;
            return maven.run(args, log);
        }
    }

    private void linkProject() throws Exception {
        for (String f : List.of("pom.xml", "src", "server-stub", ".mvn")) { // .mvn: Maven's own JVM flags, as here
            Files.createSymbolicLink(root.resolve(f), REPO.resolve(f));
        }
    }

    @Execution(ExecutionMode.CONCURRENT) // each in a root of its own; Maven times nothing
    @Test
    void thePomsVersionBuildsPassesItsContractAndIsThenCached() throws Exception {
        linkProject();
        String version = LibraryVersion.resolved("org.apache.httpcomponents.client5", "httpclient5");
        Counted maven = new Counted();
        ClientBuild b = ClientBuild.of("apache", version);
        VersionJar.Built built = VersionJar.of(b, root, Jdk.current(), maven);
        assertFalse(built.cached());
        assertEquals(version, built.version());
        assertTrue(VersionJar.contractRan(VersionJar.folder(root, b), b), "Surefire's report of " + b.contractTest());
        assertTrue(built.jar().startsWith(root.toAbsolutePath().normalize().resolve("target")), "under the test's target/");
        VersionJar.Built again = VersionJar.of(b, root, Jdk.current(), maven);
        assertTrue(again.cached());
        assertEquals(1, maven.runs);
    }

    @Execution(ExecutionMode.CONCURRENT)
    @Test
    void okHttp4IsRefusedInOneLineNamingIt() throws Exception {
        linkProject();
        ClientBuild b = ClientBuild.of("okhttp", "4.12.0");
        VersionJar.Refused e = assertThrows(VersionJar.Refused.class, () -> VersionJar.of(b, root, Jdk.current(), new Counted()));
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        assertTrue(e.getMessage().startsWith("okhttp 4.12.0: "), e.getMessage());
        // Offline, Maven cannot fetch it: a refusal too, for another reason.
        assertTrue(e.getMessage().contains("upper-bound rule") || e.getMessage().contains("cannot resolve"), e.getMessage());
        assertFalse(Files.exists(VersionJar.folder(root, b).resolve(VersionJar.KEY)));
    }
}
