package clientbench.jvm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A client's archive older than any jar of the class path is deleted, so that the next JVM writes it anew; else kept. */
class StaleArchiveIsDroppedTest {

    @TempDir
    Path dir;

    @Test
    void anArchiveOlderThanAJarIsDeletedAndANewerOneKept() throws Exception {
        Path a = Files.createFile(dir.resolve("a.jar"));
        Path b = Files.createFile(dir.resolve("b.jar"));
        Path archive = Files.createFile(dir.resolve("okhttp.jsa"));
        String classPath = a + File.pathSeparator + b;
        Files.setLastModifiedTime(a, FileTime.fromMillis(1_000_000));
        Files.setLastModifiedTime(b, FileTime.fromMillis(1_000_000));
        Files.setLastModifiedTime(archive, FileTime.fromMillis(2_000_000));
        assertFalse(ClientJvm.dropStale(archive, classPath));
        assertTrue(Files.exists(archive), "newer than every jar: kept");

        Files.setLastModifiedTime(b, FileTime.fromMillis(3_000_000)); // a rebuilt jar
        assertTrue(ClientJvm.dropStale(archive, classPath));
        assertFalse(Files.exists(archive), "older than a jar: deleted");
        assertFalse(ClientJvm.dropStale(archive, classPath), "none to delete");
    }
}
