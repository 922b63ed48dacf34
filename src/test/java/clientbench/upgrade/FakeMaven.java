package clientbench.upgrade;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Maven as the jar-per-version build sees it, without building: writes into {@code -DbuildDirectory} a jar recording
 * {@code -Dhttpclient5.version} (or {@code recorded}) and Surefire's report of {@code tests} contract cases, or fails
 * with {@code failure}'s lines. Counts its runs.
 */
final class FakeMaven implements VersionJar.Maven {
    int runs;
    List<String> failure;
    String recorded;
    int tests = 49;

    @Override
    public int run(List<String> args, Path log) throws IOException {
        runs++;
        Files.writeString(log, String.join("\n", failure == null ? List.of("[INFO] BUILD SUCCESS") : failure) + "\n");
        if (failure != null) {
            return 1;
        }
        Path dir = Path.of(value(args, "-DbuildDirectory="));
        String version = recorded != null ? recorded : value(args, "-Dhttpclient5.version=");
        try (OutputStream o = Files.newOutputStream(dir.resolve(VersionJar.JAR)); ZipOutputStream zip = new ZipOutputStream(o)) {
            zip.putNextEntry(new ZipEntry("clientbench/dependencies.txt"));
            zip.write(("\nThe following files have been resolved:\n   org.apache.httpcomponents.client5:httpclient5:jar:"
                    + version + ":compile -- module org.apache.httpcomponents.client5.httpclient5\n").getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
        }
        String test = value(args, "-Dtest=");
        Files.createDirectories(dir.resolve("surefire-reports"));
        Files.writeString(dir.resolve("surefire-reports").resolve("TEST-clientbench.adapters." + test + ".xml"),
                "<?xml version=\"1.0\"?>\n<testsuite name=\"clientbench.adapters." + test + "\" time=\"1\" tests=\"" + tests
                        + "\" errors=\"0\" skipped=\"0\" failures=\"0\">\n</testsuite>\n");
        return 0;
    }

    private static String value(List<String> args, String prefix) {
        return args.stream().filter(a -> a.startsWith(prefix)).findFirst().orElseThrow().substring(prefix.length());
    }
}
