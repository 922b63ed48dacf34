package clientbench.results;

import clientbench.plan.JmhArgs;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * results.json (JMH's JSON, which the notebook reads), results.csv (one row per shape and client), and the file
 * {@code -rf}/{@code -rff} asked for, each written once for the whole run.
 */
public final class ResultFiles {

    private ResultFiles() {
    }

    /** The three files of {@code all}; {@code runs[i]} describes {@code all[i]} (shape, client). */
    public static void write(JmhArgs jmh, Path dir, String runName, List<RunResult> all, List<Map<String, Object>> runs)
            throws IOException {
        writeJmh(ResultFormatType.JSON, dir.resolve("results.json"), all);
        ResultsCsv.write(dir.resolve(ResultsCsv.FILE), runName, all, runs);
        Path requested = jmh.resultFile(dir);
        if (requested != null) {
            writeJmh(jmh.resultFormat(), requested, all);
        }
    }

    /** With JMH's writer, through a temporary file beside it, so a failed write leaves no half file. */
    static void writeJmh(ResultFormatType format, Path file, Collection<RunResult> all) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        ResultFormatFactory.getInstance(format, tmp.toString()).writeOut(all);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
