package clientbench.results;

import clientbench.api.Outcome;
import clientbench.jmh.HarnessProfiler;
import clientbench.jmh.HarnessSelfBenchmark;
import clientbench.jvm.Jdk;
import clientbench.plan.JmhArgs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The files a run leaves from real JMH results (one short fork of the harness measuring itself, no
 * network): results.json, results.csv with one row per (shape, client) and docs/reference/files.md's columns, and the
 * file {@code -rf} asked for, holding every result of the run.
 */
@Timeout(120)
class RunResultFilesTest {
    @TempDir
    static Path dir;
    static List<RunResult> results;

    @BeforeAll
    static void oneShortRun() throws Exception {
        List<String> jvmArgs = new ArrayList<>(Jdk.current().flags());
        jvmArgs.add("-Dclientbench.hlog.dir=" + dir.toAbsolutePath());
        results = new ArrayList<>(new Runner(new OptionsBuilder()
                .include("^" + Pattern.quote(HarnessSelfBenchmark.class.getName()) + "\\.paced$")
                .param("rate", "1000", "2000")
                .forks(1).warmupIterations(0).measurementIterations(1).measurementTime(TimeValue.milliseconds(300))
                .jvmArgs(jvmArgs.toArray(String[]::new))
                .addProfiler(HarnessProfiler.class)
                .verbosity(VerboseMode.SILENT)
                .build()).run());
        assertEquals(2, results.size(), "one result per rate");
    }

    static List<Map<String, Object>> runs() {
        return results.stream().<Map<String, Object>>map(r -> Map.of("shape", "self-" + r.getParams().getParam("rate"),
                "client", "noop")).toList();
    }

    @Test
    void theCsvHasOneRowPerShapeAndClientWithTheDocumentedColumns() throws Exception {
        Path run = Files.createDirectories(dir.resolve("csv"));
        ResultFiles.write(JmhArgs.parse(List.of()), run, "20260101-000000-host", results, runs());

        List<String> lines = Files.readAllLines(run.resolve(ResultsCsv.FILE));
        assertEquals(String.join(",", ResultsCsv.COLUMNS.keySet()), lines.get(0));
        assertEquals(1 + results.size(), lines.size(), lines.toString());
        List<String> header = Arrays.asList(lines.get(0).split(","));
        for (String figure : List.of("ok", "lat.p99", "cpu.per.req", "gc.alloc.rate.norm")) {
            assertFalse(header.contains(figure), figure + ": a figure is the analysis's column, by its one estimator");
        }
        for (int i = 0; i < results.size(); i++) {
            List<String> row = Arrays.asList(lines.get(1 + i).split(",", -1));
            assertEquals(header.size(), row.size(), lines.get(1 + i));
            RunResult r = results.get(i);
            assertEquals("20260101-000000-host", row.get(header.indexOf("run")));
            assertEquals("self-" + r.getParams().getParam("rate"), row.get(header.indexOf("shape")));
            assertEquals("HarnessSelfBenchmark", row.get(header.indexOf("benchmark")));
            assertEquals(r.getParams().getParam("rate"), row.get(header.indexOf("rate")));
            assertEquals((long) SecondaryMetrics.of(r, "n.sent"), Long.parseLong(row.get(header.indexOf("n.sent"))));
            assertTrue(SecondaryMetrics.of(r, "n.sent") > 0, "the harness sent requests");
            assertEquals("latency", row.get(header.indexOf("latency.metric")));
        }
        assertTrue(Files.isRegularFile(run.resolve("results.json")));
    }

    @Test
    void theRequestedResultFormatHoldsTheWholeRun() throws Exception {
        Path run = Files.createDirectories(dir.resolve("rf"));
        ResultFiles.write(JmhArgs.parse(List.of("-rf", "csv")), run, "r", results, runs());

        List<String> jmhCsv = Files.readAllLines(run.resolve("jmh-result.csv"));
        assertTrue(jmhCsv.get(0).startsWith("\"Benchmark\""), jmhCsv.get(0));
        for (String rate : List.of("1000", "2000")) {
            assertTrue(jmhCsv.stream().anyMatch(l -> l.contains("paced") && l.endsWith("," + rate)),
                    "every run's result is in the one file, rate " + rate + ": " + jmhCsv);
        }
        try (var files = Files.list(run)) {
            assertEquals(List.of("jmh-result.csv", "results.csv", "results.json"),
                    files.map(p -> p.getFileName().toString()).sorted().toList(), "no temporary file left");
        }
    }

    @Test
    void theDocsListEveryColumnInOrder() throws Exception {
        String readme = Files.readString(Path.of(System.getProperty("user.dir"), "docs", "reference", "files.md"));
        String table = readme.substring(readme.indexOf("It has these columns"));
        int end = table.indexOf("\n\n", table.indexOf("| columns |"));
        table = end < 0 ? table : table.substring(0, end);
        List<String> listed = new ArrayList<>();
        for (String line : table.split("\n")) {
            if (line.startsWith("| `")) {
                Matcher m = Pattern.compile("`([^`]+)`").matcher(line.substring(0, line.indexOf(" | ", 2)));
                while (m.find()) {
                    if (m.group(1).startsWith("tier.")) {
                        continue; // the analysis's columns, added to the file once the verdict is decided
                    }
                    if (m.group(1).equals("n.fail.<class>")) {
                        Arrays.stream(Outcome.failures()).forEach(o -> listed.add("n.fail." + o.label()));
                    } else {
                        listed.add(m.group(1));
                    }
                }
            }
        }
        assertEquals(List.copyOf(ResultsCsv.COLUMNS.keySet()), listed);
    }

    @Test
    void cellsAreEmptyForMissingFiguresAndPlainForTheRest() {
        assertEquals("", ResultsCsv.cell(Double.NaN));
        assertEquals("12", ResultsCsv.cell(12.0));
        assertEquals("0.125", ResultsCsv.cell(0.125));
        assertEquals("1234.568", ResultsCsv.cell(1234.5678));
        assertEquals("\"a,b\"", ResultsCsv.cell("a,b"));
    }
}
