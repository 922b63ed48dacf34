package clientbench.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launcher builds target/benchmarks.jar when it is missing or older than any source (pom.xml, src/, server-stub/),
 * and only then: a copy of the script runs {@code ./bench stub --help}, the cheapest command needing the jar, with a
 * stand-in Maven that records its calls and builds nothing. File times are set, not waited for.
 */
@Timeout(60)
class LauncherRebuildsWhenSourcesChangeTest {
    @TempDir
    Path clone;
    private Path mavenCalls;
    private Path jar;
    private long now;

    @BeforeEach
    void aCloneWithAJarNewerThanEverySource() throws Exception {
        Path repo = Path.of(System.getProperty("user.dir"));
        now = System.currentTimeMillis();
        for (String f : List.of("bench", "pom.xml", "src/main/resources/clientbench/jvm/jdk-flags.txt",
                "src/main/java/clientbench/cli/Bench.java", "server-stub/src/main/java/clientbench/stub/StubServer.java")) {
            Path to = clone.resolve(f);
            Files.createDirectories(to.getParent());
            Files.copy(repo.resolve(f), to);
            age(to, 3_600_000);
        }
        jar = Files.createDirectories(clone.resolve("target")).resolve("benchmarks.jar");
        Files.writeString(jar, "");
        age(jar, 60_000);
        Path spies = Files.createDirectories(clone.resolve("spies"));
        mavenCalls = clone.resolve("maven-calls");
        Path mvn = spies.resolve("mvn");
        // Records its arguments and talks as Maven does on a first build, to stdout and stderr.
        Files.writeString(mvn, "#!/bin/sh\necho \"$@\" >> '" + mavenCalls + "'\n"
                + "echo '[INFO] Downloading from central: https://repo/x.pom'\necho '[INFO] BUILD SUCCESS' >&2\n");
        assertTrue(mvn.toFile().setExecutable(true));
    }

    private void age(Path file, long millis) throws Exception {
        Files.setLastModifiedTime(file, FileTime.fromMillis(now - millis));
    }

    /** {@code bash clone/bench stub --help}; returns its standard error. */
    private String benchStubHelp() throws Exception {
        Path err = clone.resolve("stderr.txt");
        ProcessBuilder pb = new ProcessBuilder("bash", clone.resolve("bench").toString(), "stub", "--help")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile());
        pb.environment().put("PATH", clone.resolve("spies") + ":" + System.getenv("PATH"));
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the launcher still ran after 30 s: " + Files.readString(err));
        }
        return Files.readString(err, StandardCharsets.UTF_8);
    }

    private List<String> mavenCalls() throws Exception {
        return Files.exists(mavenCalls) ? Files.readAllLines(mavenCalls) : List.of();
    }

    @Test
    void aJarNewerThanEverySourceIsUsedAsItIs() throws Exception {
        String err = benchStubHelp();
        assertEquals(List.of(), mavenCalls(), err);
        assertTrue(!err.contains("building") && !err.contains("rebuilding"), err);
    }

    @Test
    void aChangedSourceRebuildsTheJarQuietly() throws Exception {
        for (String source : List.of("src/main/java/clientbench/cli/Bench.java", "server-stub/src/main/java/clientbench/stub/StubServer.java",
                "pom.xml")) {
            Files.deleteIfExists(mavenCalls);
            age(clone.resolve(source), 0); // touched: newer than the jar
            String err = benchStubHelp();
            List<String> calls = mavenCalls();
            assertEquals(1, calls.size(), source + ": " + err);
            assertTrue(calls.get(0).contains("-ntp") && calls.get(0).contains("-q package -DskipTests"), source + ": " + calls.get(0));
            assertTrue(calls.get(0).contains("-f " + clone.resolve("pom.xml")), calls.get(0));
            assertTrue(err.contains("bench: sources changed; rebuilding target/benchmarks.jar"), err);
            age(clone.resolve(source), 3_600_000);
        }
    }

    /** A fresh machine's first build: one line before, one after, Maven's transfer log off and its lines in a file. */
    @Test
    void noJarBuildsOneSayingSoInALineBeforeAndAfter() throws Exception {
        Files.delete(jar);
        String err = benchStubHelp();
        List<String> calls = mavenCalls();
        assertEquals(1, calls.size(), err);
        assertTrue(calls.get(0).contains("-ntp") && calls.get(0).contains("-q package -DskipTests"), calls.get(0));
        assertTrue(err.contains("bench: building target/benchmarks.jar"), err);
        assertTrue(err.lines().noneMatch(l -> l.contains("Downloading") || l.startsWith("[INFO]")), "no Maven lines: " + err);
    }
}
