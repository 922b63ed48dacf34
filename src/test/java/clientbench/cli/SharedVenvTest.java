package clientbench.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The report's venv is made once per locks and interpreter, in the cache folder, and every clone links it as .venv:
 * a second clone installs nothing, another lock gets its own, an install cut short is made again, and where the cache
 * cannot be written the clone keeps a venv of its own. A stand-in interpreter logs each venv it makes and each install.
 */
@Timeout(60)
class SharedVenvTest {

    static final Path REPO = Path.of(System.getProperty("user.dir"));

    @TempDir
    Path tmp;
    Path cache;
    Path log;
    Path tools;

    @BeforeEach
    void standIns() throws IOException {
        cache = tmp.resolve("cache");
        log = Files.createDirectories(tmp.resolve("log"));
        tools = Files.createDirectories(tmp.resolve("tools"));
        // Answers the launcher's version questions as 3.12 would; "-m venv --clear DIR" makes DIR with itself as its
        // python and a pip that logs its arguments.
        Path python = tools.resolve("python3");
        Files.writeString(python, """
                #!/bin/sh
                case "$*" in
                  *%d.%d*) echo 3.12 ;;
                  *version_info*) exit 0 ;;
                  *base_prefix*) echo "3.12.0 (stand-in) /stand-in" ;;
                  *sys.version*) echo "3.12.0 (stand-in)" ;;
                  "-m venv --clear "*) rm -rf "$4"; mkdir -p "$4/bin"; cp "$0" "$4/bin/python"
                     printf '#!/bin/sh\\necho "$*" >> LOG/pip\\n' > "$4/bin/pip"; chmod +x "$4/bin/pip"
                     echo "$4" >> LOG/venv ;;
                  *) exit 1 ;;
                esac
                """.replace("LOG", log.toString()));
        assertTrue(python.toFile().setExecutable(true));
        Path mvn = tools.resolve("mvn"); // no jar in a clone here: the build beside the venv fails at once
        Files.writeString(mvn, "#!/bin/sh\nexit 1\n");
        assertTrue(mvn.toFile().setExecutable(true));
    }

    /** What the launcher reads before it makes the venv, copied from the repository. */
    Path clone(String name) throws IOException {
        Path dir = tmp.resolve(name);
        for (String f : List.of("bench", "pom.xml", "requirements.lock", "requirements-notebook.lock",
                "src/main/resources/clientbench/jvm/jdk-flags.txt")) {
            Files.createDirectories(dir.resolve(f).getParent());
            Files.copy(REPO.resolve(f), dir.resolve(f));
        }
        return dir;
    }

    /** {@code ./bench report x} in {@code dir}: the venv is made beside the build, which the stand-in mvn fails. */
    void launch(Path dir, Path cacheFolder) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", dir.resolve("bench").toString(), "report", "x")
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(tmp.resolve("out.txt").toFile());
        pb.environment().put("PATH", tools + ":" + System.getenv("PATH"));
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().put("PYTHON", tools.resolve("python3").toString());
        pb.environment().put("CLIENTBENCH_CACHE", cacheFolder.toString());
        Process p = pb.start();
        assertTrue(p.waitFor(50, TimeUnit.SECONDS), "ended");
        assertNotEquals(0, p.exitValue(), "the stand-in build fails: " + Files.readString(tmp.resolve("out.txt")));
    }

    List<String> logged(String what) throws IOException {
        Path f = log.resolve(what);
        return Files.exists(f) ? Files.readAllLines(f) : List.of();
    }

    @Test
    void aSecondCloneLinksTheVenvTheFirstMadeAndInstallsNothing() throws Exception {
        Path a = clone("a");
        launch(a, cache);
        List<String> made = logged("venv");
        assertEquals(1, made.size(), made.toString());
        Path shared = Path.of(made.get(0));
        assertTrue(shared.startsWith(cache), shared.toString());
        assertEquals(1, logged("pip").size(), logged("pip").toString());
        assertTrue(logged("pip").get(0).endsWith("-r " + a.resolve("requirements.lock")), logged("pip").toString());
        assertEquals(shared, Files.readSymbolicLink(a.resolve(".venv")));

        Path b = clone("b");
        launch(b, cache);
        assertEquals(List.of(shared.toString()), logged("venv"), "no second venv");
        assertEquals(1, logged("pip").size(), "no second install: " + logged("pip"));
        assertEquals(shared, Files.readSymbolicLink(b.resolve(".venv")));
    }

    @Test
    void anotherLockGetsItsOwnVenvAndAnInstallCutShortIsMadeAgain() throws Exception {
        Path a = clone("a");
        launch(a, cache);
        Path shared = Files.readSymbolicLink(a.resolve(".venv"));

        Path newer = clone("newer");
        Files.writeString(newer.resolve("requirements.lock"), "# one more line\n",
                java.nio.file.StandardOpenOption.APPEND);
        launch(newer, cache);
        Path other = Files.readSymbolicLink(newer.resolve(".venv"));
        assertNotEquals(shared, other);
        assertEquals(List.of(shared.toString(), other.toString()), logged("venv"));

        Files.delete(shared.resolve(".requirements.sha256")); // as pip's install left it when cut short
        launch(a, cache);
        assertEquals(List.of(shared.toString(), other.toString(), shared.toString()), logged("venv"));
        assertEquals(3, logged("pip").size(), logged("pip").toString());
    }

    @Test
    void whereTheCacheCannotBeWrittenTheCloneKeepsAVenvOfItsOwn() throws Exception {
        Path a = clone("a");
        Path notAFolder = Files.writeString(tmp.resolve("a-file"), "");
        launch(a, notAFolder);
        assertFalse(Files.isSymbolicLink(a.resolve(".venv")));
        assertEquals(List.of(a.resolve(".venv").toString()), logged("venv"));
        assertEquals(1, logged("pip").size(), logged("pip").toString());
    }
}
