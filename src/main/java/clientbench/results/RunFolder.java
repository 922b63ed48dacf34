package clientbench.results;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code results/<yyyyMMdd-HHmmss>-<host>/}. While the run is going (and for good if it fails or is
 * interrupted) the folder is named {@code ...incomplete} and holds an {@code INCOMPLETE} file saying
 * why; only a finished run is renamed to its final name. Earlier runs are never touched.
 */
public final class RunFolder {
    public static final String INCOMPLETE_SUFFIX = ".incomplete";
    public static final String MARKER = "INCOMPLETE";

    private final Path finalDir;
    private final Path workDir;
    private volatile boolean finished;

    private RunFolder(Path finalDir, Path workDir) {
        this.finalDir = finalDir;
        this.workDir = workDir;
    }

    public static RunFolder create(Path results) throws IOException {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        String base = stamp + "-" + host();
        Path finalDir = results.resolve(base);
        for (int i = 2; Files.exists(finalDir) || Files.exists(Path.of(finalDir + INCOMPLETE_SUFFIX)); i++) {
            finalDir = results.resolve(base + "-" + i);
        }
        Path work = Path.of(finalDir + INCOMPLETE_SUFFIX);
        Files.createDirectories(work);
        RunFolder f = new RunFolder(finalDir, work);
        f.markIncomplete("running (started " + LocalDateTime.now() + "); a run that stops here was interrupted or failed");
        return f;
    }

    static String host() {
        try {
            return InetAddress.getLocalHost().getHostName().replaceAll("[^A-Za-z0-9._-]", "_");
        } catch (IOException e) {
            return "localhost";
        }
    }

    /** Where files go while the run is going. */
    public Path dir() {
        return finished ? finalDir : workDir;
    }

    public Path finalDir() {
        return finalDir;
    }

    public void markIncomplete(String reason) {
        if (finished) {
            return;
        }
        try {
            Files.writeString(workDir.resolve(MARKER), reason + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            System.err.println("bench: cannot mark " + workDir + " incomplete: " + e.getMessage());
        }
    }

    /** The run is whole: drop the marker and take the final name. */
    public void finish() throws IOException {
        Files.deleteIfExists(workDir.resolve(MARKER));
        Files.move(workDir, finalDir, StandardCopyOption.ATOMIC_MOVE);
        finished = true;
    }

    boolean finished() {
        return finished;
    }

    /** The newest finished run under {@code results}, or null. */
    public static Path newest(Path results) throws IOException {
        if (!Files.isDirectory(results)) {
            return null;
        }
        try (Stream<Path> s = Files.list(results)) {
            return s.filter(Files::isDirectory)
                    .filter(p -> !p.getFileName().toString().endsWith(INCOMPLETE_SUFFIX))
                    .filter(p -> Files.isRegularFile(p.resolve("summary.json"))) // what the report reads
                    .max(Comparator.comparing(p -> p.getFileName().toString())).orElse(null);
        }
    }

    /** The run folder's trial records and histograms ({@code *.trial.json}, {@code *.hlog}), at its top level. */
    public static List<Path> trialFiles(Path dir) throws IOException {
        try (var files = Files.newDirectoryStream(dir, "*.{trial.json,hlog}")) {
            List<Path> out = new ArrayList<>();
            files.forEach(out::add);
            return out;
        }
    }
}
