package clientbench.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/** This process's socket descriptors, by inode, as Linux lists them in {@code /proc/self/fd}. */
public final class OwnSockets {
    private static final Path FDS = Path.of("/proc/self/fd");

    private OwnSockets() {
    }

    /** Whether they can be read here (Linux). */
    public static boolean readable() {
        return Files.isDirectory(FDS);
    }

    /** The inodes of its socket descriptors now; empty where they cannot be read ({@link #readable()}). */
    public static Set<String> inodes() {
        Set<String> inodes = new TreeSet<>();
        if (!readable()) {
            return inodes;
        }
        try (Stream<Path> s = Files.list(FDS)) {
            for (Path fd : s.toList()) {
                try {
                    String link = Files.readSymbolicLink(fd).toString();
                    if (link.startsWith("socket:[")) {
                        inodes.add(link.substring(8, link.length() - 1));
                    }
                } catch (IOException closedMeanwhile) {
                    // the descriptor was closed while the directory was read
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return inodes;
    }
}
