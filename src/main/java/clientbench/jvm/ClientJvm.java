package clientbench.jvm;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM every client runs in, whoever starts it (a benchmark fork, a startup probe): one heap for every
 * client, the JDK's flags, and where the client's own class-data archive lives, so that a fork and a probe
 * of the same client start alike.
 */
public final class ClientJvm {

    private ClientJvm() {
    }

    /** One heap for every client; a client that runs out of it ends its JVM at once, as a result. */
    public static List<String> args(Jdk jdk) {
        List<String> a = new ArrayList<>(List.of("-Xms1g", "-Xmx1g", "-XX:+ExitOnOutOfMemoryError"));
        a.addAll(jdk.flags());
        return a;
    }

    /** Where the class-data archives of the JVMs started on {@code jdk} are kept: under target/, one folder per JDK. */
    public static Path archiveDir(Path root, Jdk jdk) {
        Path home = jdk.java().toAbsolutePath().getParent().getParent();
        return root.toAbsolutePath().normalize().resolve("target").resolve("cds").resolve(home.getFileName().toString());
    }

    /**
     * Whether a JVM on {@code jdk} and {@code classPath} can have an archive in {@code dir}: JDK 19 or newer, a class
     * path of jars alone ({@link Jdk#canArchiveClasses}) and a folder it can write, made here if missing.
     */
    public static boolean canArchive(Jdk jdk, String classPath, Path dir) {
        if (jdk.feature() < 19) {
            return false;
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            return false; // startup as without one
        }
        return Jdk.canArchiveClasses(classPath, dir);
    }

    /**
     * Deletes {@code archive} when an entry of {@code classPath} is newer: JDK 25 rewrites a missing archive at exit,
     * but neither maps nor rewrites one whose jars changed, so after a rebuild it would stay unused for good. True when
     * it deleted one; a file it cannot read or delete is left (the JVM then starts as without an archive).
     */
    public static boolean dropStale(Path archive, String classPath) {
        try {
            if (!Files.isRegularFile(archive)) {
                return false;
            }
            FileTime made = Files.getLastModifiedTime(archive);
            for (String entry : classPath.split(File.pathSeparator)) {
                Path p = Path.of(entry);
                if (!entry.isEmpty() && Files.exists(p) && Files.getLastModifiedTime(p).compareTo(made) >= 0) {
                    return Files.deleteIfExists(archive);
                }
            }
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    /** The archive of {@code client}'s own in {@code dir}. */
    public static Path archive(Path dir, String client) {
        return dir.resolve(client + ".jsa");
    }

    /**
     * The flags that give a JVM the client's own archive ({@code -XX:+AutoCreateSharedArchive}, JDK 19+): written at
     * exit when it is missing or does not fit this JVM, mapped instead of loading the classes again otherwise; a stub
     * that the JVM starts gets one of its own in the same folder ({@code clientbench.cds}).
     */
    public static List<String> archiveArgs(Path dir, String client) {
        return List.of("-XX:+AutoCreateSharedArchive", "-XX:SharedArchiveFile=" + archive(dir, client),
                "-Dclientbench.cds=" + dir);
    }
}
