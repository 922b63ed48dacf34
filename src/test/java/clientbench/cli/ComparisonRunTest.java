package clientbench.cli;

import clientbench.harness.record.JsonFiles;
import clientbench.harness.StubProcess;
import clientbench.plan.Shape;
import clientbench.results.RunFolder;
import clientbench.run.ProgressLine;
import clientbench.testkit.Prerequisites;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * README's promises for a comparison run, from real runs of the built jar as {@code ./bench} starts them: smoke's
 * progress, verdict, refused protocol and every listed file and its contents; Ctrl-C leaving the run incomplete; a
 * failed run listed with its reason (a run until decided: {@link UntilDecidedRunTest}). No figure is asserted: the runs are seconds long on a machine that may be busy.
 */
@org.junit.jupiter.api.Tag("reliability") // needs target/benchmarks.jar: mvn verify (Failsafe), after mvn package
@Timeout(300)
@Order(1) // among the longest of the reliability classes: started first, beside each other (pom.xml)
class ComparisonRunTest {
    static final Path REPO = Path.of(System.getProperty("user.dir"));
    static final Path JAR = REPO.resolve("target").resolve("benchmarks.jar");
    static final Path PYTHON = REPO.resolve(".venv").resolve("bin").resolve("python");
    /** Start-up, 8 forks of about 4 s and the report: about a minute; this only ends a hang. */
    static final long RUN_DEADLINE_SECONDS = 240;
    static final Pattern RUN_NAME = Pattern.compile("\\d{8}-\\d{6}-[A-Za-z0-9._-]+");

    @TempDir
    static Path tmp;

    @BeforeAll
    static void theJarIsBuilt() {
        assertTrue(Files.isRegularFile(JAR), "runs after mvn package (Failsafe): " + JAR);
    }

    static Path root(String name) throws IOException {
        return root(tmp, name);
    }

    /** A root of its own for ./bench: results/ in it, the notebook and its module linked from the repository. */
    static Path root(Path scratch, String name) throws IOException {
        Path root = Files.createDirectories(scratch.resolve(name));
        Files.createSymbolicLink(root.resolve("analysis.ipynb"), REPO.resolve("analysis.ipynb"));
        Files.createSymbolicLink(root.resolve("analysis"), REPO.resolve("analysis"));
        return root;
    }

    record Ran(int exit, List<String> out, List<String> err) {
        String all() {
            return "exit " + exit + "\nstdout:\n" + String.join("\n", out) + "\nstderr:\n" + String.join("\n", err);
        }
    }

    static List<String> java(Path root, boolean python, String classPath, String mainClass, String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(StubProcess.jdkFlags()); // as ./bench runs it
        cmd.add("-Dclientbench.root=" + root);
        if (python) {
            cmd.add("-Dclientbench.python=" + PYTHON);
        }
        if (Boolean.getBoolean("jmh.ignoreLock")) {
            cmd.add("-Djmh.ignoreLock=true"); // as the build sets it for the tests (see pom.xml)
        }
        cmd.addAll(List.of("-cp", classPath, mainClass));
        cmd.addAll(List.of(args));
        return cmd;
    }

    static Ran run(List<String> cmd) throws Exception {
        return run(tmp, cmd);
    }

    /** Runs {@code cmd} to its end (or ends it at the deadline), its output kept in {@code scratch}. */
    static Ran run(Path scratch, List<String> cmd) throws Exception {
        Path out = Files.createTempFile(scratch, "out", ".txt");
        Path err = Files.createTempFile(scratch, "err", ".txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(RUN_DEADLINE_SECONDS, TimeUnit.SECONDS)) {
            endTree(p.toHandle());
            fail("still running after " + RUN_DEADLINE_SECONDS + " s: " + cmd + "\n" + Files.readString(out) + Files.readString(err));
        }
        return new Ran(p.exitValue(), Files.readAllLines(out), Files.readAllLines(err));
    }

    /** The one run folder under {@code root/results}, finished or not. */
    static Path runFolder(Path root) throws IOException {
        try (Stream<Path> s = Files.list(root.resolve("results"))) {
            List<Path> runs = s.toList();
            assertEquals(1, runs.size(), "one run folder: " + runs);
            return runs.get(0);
        }
    }

    static List<String> names(Path dir, String suffix) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(suffix)).sorted().toList();
        }
    }

    static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    @Execution(ExecutionMode.CONCURRENT) // the runs assert no figure: beside each other
    @Test
    void aSmokeRunPrintsItsProgressAndSummaryAndLeavesEveryFileReadmeNames() throws Exception {
        Prerequisites.require(Files.isExecutable(PYTHON), "the report's venv (./bench test makes it)");
        Path root = root("smoke");
        Ran r = run(java(root, true, JAR.toString(), Bench.class.getName(), "run", "--profile", "smoke", "--clients", "jdk,apache-vt"));
        assertEquals(0, r.exit(), r.all());
        Path dir = runFolder(root);
        String name = dir.getFileName().toString();
        assertTrue(RUN_NAME.matcher(name).matches(), "a finished run's name: " + name);
        assertFalse(Files.exists(dir.resolve(RunFolder.MARKER)), "no INCOMPLETE in a finished run");

        // The terminal: where it goes, one line per run in the schedule's order (rounds), the verdict, the report.
        List<String> out = r.out();
        assertEquals("bench: profile smoke (that the pipeline works end to end, seconds per client: not a measurement)",
                out.get(0));
        assertTrue(out.get(1).matches("bench: 2 clients \\+ noop, 2 shapes, 9 runs in 2 rounds, about \\d+m\\d\\ds; "
                + "results in .*" + Pattern.quote(name + RunFolder.INCOMPLETE_SUFFIX)), out.get(1));
        Pattern progress = Pattern.compile("\\[(\\d)/9] r(\\d)/(\\d) (\\S+) +(\\S+) +(.*) \\((\\d+m\\d\\ds) left\\)");
        List<String> ran = new ArrayList<>();
        int line = 2;
        // First the cold starts, one line before and one after (startup.log has a line per start).
        assertTrue(out.get(line++).startsWith("[startup] 1 starts of each client and noop"), r.all());
        assertTrue(out.get(line++).matches("\\[startup] 3 starts done; startup.json"), r.all());
        // An interleaved set says what it does while its forks run ("[set 1/2 immediate-1000] block 1/2"), then a line
        // for each of its runs.
        Pattern setLine = Pattern.compile("\\[set (\\d)/2 immediate-1000] .+");
        List<String> setLines = new ArrayList<>();
        for (; line < out.size() && (progress.matcher(out.get(line)).matches() || setLine.matcher(out.get(line)).matches()); line++) {
            if (setLine.matcher(out.get(line)).matches()) {
                setLines.add(out.get(line));
                continue;
            }
            Matcher m = progress.matcher(out.get(line));
            assertTrue(m.matches());
            assertTrue(out.get(line).length() <= ProgressLine.WIDTH, "at most 120 characters: " + out.get(line));
            String result = m.group(6);
            if (m.group(5).equals("apache-vt") && m.group(4).equals("h2c-1000")) {
                assertEquals("skipped: it refuses h2c (env.json says why)", result, "apache-vt has no HTTP/2");
            } else {
                assertTrue(result.matches("ok \\d+/s p99 .+ cpu .+/req.*"), result);
            }
            ran.add(m.group(4) + "/" + m.group(5) + "/r" + m.group(2));
        }
        assertEquals(List.of("[set 1/2 immediate-1000] 3 JVMs, 2 blocks", "[set 1/2 immediate-1000] block 1/2",
                "[set 1/2 immediate-1000] block 2/2"), setLines.subList(0, 6).stream()
                .filter(l -> !l.contains("warming up")).toList(), r.all());
        assertEquals(12, setLines.size(), "two sets: a start, three warm-ups, two blocks each: " + setLines);
        // Round 1 of both shapes, then round 2 of the shape that has one; each round every client and noop once.
        assertEquals(9, ran.size(), "one line a run, the skipped one among them:\n" + r.all());
        Set<String> round1 = Set.of("immediate-1000/jdk/r1", "immediate-1000/apache-vt/r1", "immediate-1000/noop/r1");
        assertEquals(round1, new HashSet<>(ran.subList(0, 3)), ran.toString());
        assertEquals(Set.of("h2c-1000/jdk/r1", "h2c-1000/apache-vt/r1", "h2c-1000/noop/r1"), new HashSet<>(ran.subList(3, 6)));
        assertEquals(Set.of("immediate-1000/jdk/r2", "immediate-1000/apache-vt/r2", "immediate-1000/noop/r2"),
                new HashSet<>(ran.subList(6, 9)));
        // Then the verdict (as the report begins), and where the report is, last.
        List<String> rest = out.subList(line, out.size());
        assertTrue(rest.stream().anyMatch(l -> l.startsWith("verdict (") && l.contains("smoke")), "the verdict:\n" + r.all());
        assertTrue(rest.stream().anyMatch(l -> l.startsWith("client ")), "the decision table:\n" + r.all());
        assertEquals("bench: report " + dir.resolve("report.html"), out.get(out.size() - 1), r.all());
        assertTrue(out.size() - line <= 45, "the ending fits a screen: " + (out.size() - line) + " lines\n" + r.all());

        // The files README lists.
        for (String f : List.of("results.json", "results.csv", "summary.json", "env.json", "jmh.log", "report.html",
                "startup.json", "startup.log")) {
            assertTrue(Files.size(dir.resolve(f)) > 0, f + " in " + names(dir, ""));
        }
        assertEquals(5, JsonFiles.MAPPER.readTree(dir.resolve("results.json").toFile()).size(), "a JMH result per run");
        assertEquals(6, Files.readAllLines(dir.resolve("results.csv")).size(), "a header and a row per run");
        assertEquals(5, JsonFiles.MAPPER.readTree(dir.resolve("summary.json").toFile()).path("runs").size());
        assertEquals(8, names(dir, ".hlog").size(), "a fork per client and round: " + names(dir, ""));
        assertEquals(8, names(dir, ".trial.json").size(), names(dir, "").toString());
        String report = Files.readString(dir.resolve("report.html"));
        assertTrue(report.contains("<html") && report.contains("h2c-1000/apache-vt") && report.contains("no HTTP/2"),
                "the report lists the skipped run and why");

        JsonNode env = JsonFiles.MAPPER.readTree(dir.resolve("env.json").toFile());
        assertEquals("smoke", env.path("profile").asText());
        JsonNode machine = env.path("machine");
        for (String key : List.of("host", "cpuModel", "os", "kernel", "arch")) {
            assertFalse(machine.path(key).asText().isBlank(), "machine." + key + ": " + machine);
        }
        assertTrue(machine.path("cpuCount").asInt() > 0 && machine.path("memoryBytes").asLong() > 0, machine.toString());
        assertEquals(System.getProperty("java.version"), env.path("launcherJdk").path("version").asText());
        assertTrue(env.path("forkJava").asText().endsWith("java"), env.path("forkJava").asText());
        List<String> flags = texts(env.path("forkJvmArgs"));
        assertTrue(flags.containsAll(List.of("-Xmx1g", "-XX:+ExitOnOutOfMemoryError")) && flags.containsAll(StubProcess.jdkFlags()), flags.toString());
        JsonNode settings = env.path("settings");
        assertFalse(settings.path("requestTimeout").asText().isBlank(), settings.toString());
        for (JsonNode s : env.path("shapes")) {
            JsonNode t = s.path("timings");
            assertEquals(0, t.path("warmupIterations").asInt(), s.toString());
            assertEquals(s.path("name").asText().equals("immediate-1000") ? 2 : 1, t.path("measurementIterations").asInt(),
                    s.toString());
        }
        // Each set's record: its forks' warm-up order and each block's order, every fork once, none left early.
        JsonNode sets = env.path("sets");
        assertEquals(2, sets.size(), sets.toString());
        for (JsonNode set : sets) {
            assertEquals(Set.of("jdk", "apache-vt", "noop"), new HashSet<>(texts(set.path("warmupOrder"))), set.toString());
            assertEquals(2, set.path("blockOrders").size(), set.toString());
            set.path("blockOrders").forEach(o -> assertEquals(Set.of("jdk", "apache-vt", "noop"), new HashSet<>(texts(o))));
            assertEquals(List.of(), texts(set.path("left")), set.toString());
        }
        JsonNode rounds = env.path("rounds");
        assertEquals(3, rounds.size(), "immediate-1000 twice, h2c-1000 once: " + rounds);
        for (JsonNode round : rounds) {
            assertTrue(round.path("flags").isArray() && round.path("order").isArray(), round.toString());
        }
        assertTrue(env.path("seed").isNumber(), "the orders' seed is recorded");
        assertEquals(List.of("jdk", "apache-vt"), texts(env.path("clients")));
        List<String> shapes = new ArrayList<>();
        env.path("shapes").forEach(s -> shapes.add(s.path("name").asText() + " " + s.path("params").path("protocol").asText("http1")));
        assertEquals(List.of("immediate-1000 http1", "h2c-1000 h2c"), shapes);
        assertEquals(5, env.path("runs").size(), env.path("runs").toString());
        assertEquals(List.of(), texts(env.path("failed")));
        List<String> skipped = texts(env.path("skipped"));
        assertEquals(1, skipped.size(), skipped.toString());
        assertTrue(skipped.get(0).startsWith("h2c-1000/apache-vt: ") && skipped.get(0).contains("HTTP/2"), skipped.get(0));
        for (String client : List.of("jdk", "apache-vt", "noop")) {
            JsonNode s = env.path("clientSettings").path(client);
            assertFalse(s.path("library").asText().isBlank(), client + ": " + s);
            assertFalse(s.path("harness.cpus").asText().isBlank(), "the CPU layout, " + client + ": " + s);
        }

        // Each trial's record: what ran, on what, in which round, and its measured iterations.
        Set<String> trials = new HashSet<>();
        List<long[]> windows = new ArrayList<>();
        for (String f : names(dir, ".trial.json")) {
            JsonNode t = JsonFiles.MAPPER.readTree(dir.resolve(f).toFile());
            String client = t.path("client").asText();
            String shape = t.path("shape").asText();
            trials.add(shape + "/" + client + "/r" + t.path("round").asInt());
            assertEquals(Shape.OPEN, t.path("benchmark").asText(), f);
            assertEquals(client, t.path("params").path("client").asText(), f);
            assertEquals("1000", t.path("params").path("rate").asText(), f);
            assertEquals(shape.startsWith("h2c") ? "h2c" : "http1", t.path("params").path("protocol").asText(), f);
            assertFalse(t.path("settings").path("library").asText().isBlank(), f);
            assertTrue(t.path("layout").isObject() && !t.path("layout").isEmpty(), f);
            // A shape in rounds: its round's stub, asked in turn; a set's forks, alive at once: each its own.
            String stub = t.path("settings").path("stub").asText();
            if (!client.equals("noop")) {
                assertTrue(stub.startsWith(shape.equals("h2c-1000") ? "the round's JVM" : "own JVM"), f + ": " + stub);
                java.util.regex.Matcher pid = java.util.regex.Pattern.compile("pid (\\d+)").matcher(stub);
                assertTrue(pid.find(), stub);
                assertFalse(ProcessHandle.of(Long.parseLong(pid.group(1))).map(ProcessHandle::isAlive).orElse(false),
                        f + ": its stub outlived the run");
            }
            JsonNode iterations = t.path("iterations");
            if (shape.equals("h2c-1000")) {
                assertEquals(1, iterations.size(), f + ": no warm-up, one measured iteration");
                assertTrue(iterations.get(0).path("measured").asBoolean(), f);
                assertEquals(1000, iterations.get(0).path("scheduled").asLong(), f);
                continue;
            }
            // An interleaved fork: each turn one unmeasured window at the same rate (smoke's forks never settle, so
            // none has steadiness to regain), then its measured one; blocks 1, 2.
            assertTrue(t.path("interleaved").asBoolean(), f);
            int block = 0;
            int resumes = 0;
            for (int i = 0; i < iterations.size(); i++) {
                JsonNode it = iterations.get(i);
                if (it.path("measured").asBoolean()) {
                    assertEquals(1, resumes, f + " iteration " + i + ": resume windows before");
                    assertEquals(++block, it.path("block").asInt(), f + " iteration " + i);
                    resumes = 0;
                } else {
                    assertEquals(++resumes, it.path("resume").asInt(), f + " iteration " + i);
                }
                assertEquals(1000, it.path("scheduled").asLong(), f + " iteration " + i);
                windows.add(new long[] {it.path("windowStartEpochMillis").asLong(),
                        it.path("windowStartEpochMillis").asLong() + it.path("windowNanos").asLong() / 1_000_000});
            }
            assertEquals(2, block, f + ": two measured windows");
        }
        // The set's forks took turns: no two windows of them, measured or not, overlap in time.
        windows.sort(java.util.Comparator.comparingLong(w -> w[0]));
        for (int i = 1; i < windows.size(); i++) {
            assertTrue(windows.get(i)[0] >= windows.get(i - 1)[1], "windows overlap: " + windows.get(i - 1)[0] + "-"
                    + windows.get(i - 1)[1] + " and " + windows.get(i)[0]);
        }
        assertEquals(Set.of("immediate-1000/jdk/r1", "immediate-1000/apache-vt/r1", "immediate-1000/noop/r1",
                "immediate-1000/jdk/r2", "immediate-1000/apache-vt/r2", "immediate-1000/noop/r2", "h2c-1000/jdk/r1",
                "h2c-1000/noop/r1"), trials);
        JsonNode verdict = JsonFiles.MAPPER.readTree(dir.resolve("summary.json").toFile()).path("verdict");
        assertEquals(List.of("jdk", "apache-vt"), texts(verdict.path("clients")), "the verdict is in summary.json");
        assertTrue(Files.readAllLines(dir.resolve("results.csv")).get(0).contains("tier.cpu"), "and in results.csv");
    }

    @Execution(ExecutionMode.CONCURRENT)
    @Test
    void ctrlCLeavesTheRunIncompleteSayingWhy() throws Exception {
        Path root = root("interrupted");
        Path out = Files.createTempFile(tmp, "out", ".txt");
        // SIGINT back to its default: a run started in the background (CI's, say) inherits it ignored, and a JVM
        // that starts with SIGINT ignored keeps ignoring it, as a terminal's Ctrl-C never is.
        List<String> cmd = new ArrayList<>(List.of("env", "--default-signal=INT"));
        cmd.addAll(java(root, false, JAR.toString(), Bench.class.getName(), "run", "--profile", "smoke", "--clients", "jdk"));
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectErrorStream(true).start();
        List<ProcessHandle> tree = new ArrayList<>();
        try {
            // Once the first run's JMH fork is up: interrupted in the middle of a run, as Ctrl-C would be.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RUN_DEADLINE_SECONDS);
            while (p.descendants().noneMatch(ComparisonRunTest::isJmhFork)) {
                assertTrue(p.isAlive(), "the run ended before its first fork:\n" + Files.readString(out));
                assertTrue(System.nanoTime() < deadline, "no JMH fork:\n" + Files.readString(out));
                Thread.sleep(20);
            }
            // Ctrl-C reaches every process of the terminal's foreground group: the launcher's JVM, the fork, the stub.
            tree.add(p.toHandle());
            tree.addAll(p.descendants().toList());
            for (ProcessHandle h : tree) {
                new ProcessBuilder("kill", "-INT", Long.toString(h.pid())).start().waitFor(10, TimeUnit.SECONDS);
            }
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "still running after Ctrl-C:\n" + Files.readString(out));
        } finally {
            tree.forEach(ComparisonRunTest::endTree);
            endTree(p.toHandle());
        }
        String output = Files.readString(out);
        Path dir = runFolder(root);
        assertTrue(dir.getFileName().toString().endsWith(RunFolder.INCOMPLETE_SUFFIX), "the run keeps its .incomplete name: " + dir);
        String why = Files.readString(dir.resolve(RunFolder.MARKER));
        assertTrue(why.startsWith("interrupted at "), "INCOMPLETE says why: " + why + "\n" + output);
        assertTrue(output.contains("bench: interrupted; partial results stay in " + dir + " (marked INCOMPLETE)"), output);
    }

    @Execution(ExecutionMode.CONCURRENT)
    @Test
    void aRunThatFailsIsRecordedWithItsReasonAndTheNextRunGoesOn() throws Exception {
        Path root = root("failed");
        String classPath = System.getProperty("java.class.path");
        Ran r = run(java(root, false, classPath, ProfileRunProbe.class.getName(), "broken", "good"));
        // Without the report's Python the run still finishes; the report is left to ./bench report.
        assertEquals(1, r.exit(), r.all());
        Path dir = runFolder(root);
        assertTrue(RUN_NAME.matcher(dir.getFileName().toString()).matches(), "the run finished: " + dir);
        assertTrue(r.out().get(2).matches("\\[1/2] r1/1 broken +noop +FAILED: .*delayMs.* \\(.* left\\)"), r.all());
        assertTrue(r.out().get(3).matches("\\[2/2] r1/1 immediate-1000 +noop +ok .*"), "the next run went on:\n" + r.all());
        assertTrue(r.out().contains("bench: 1 of 2 runs failed (env.json and the report say why)"), r.all());

        JsonNode env = JsonFiles.MAPPER.readTree(dir.resolve("env.json").toFile());
        List<String> failed = texts(env.path("failed"));
        assertEquals(1, failed.size(), failed.toString());
        assertTrue(failed.get(0).startsWith("broken/noop: round 1/1: ") && failed.get(0).contains("delayMs"), "the reason: " + failed.get(0));
        assertEquals(1, env.path("runs").size(), "the run that went on: " + env.path("runs"));
        assertEquals(1, JsonFiles.MAPPER.readTree(dir.resolve("results.json").toFile()).size());
        assertTrue(Files.readString(dir.resolve("jmh.log")).contains("delayMs"), "details in jmh.log");

        // ./bench report on it: report.html, listing the failed run with its reason.
        Prerequisites.require(Files.isExecutable(PYTHON), "the report's venv (./bench test makes it)");
        Ran report = run(java(REPO, true, JAR.toString(), Bench.class.getName(), "report", dir.toString()));
        assertEquals(0, report.exit(), report.all());
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("broken/noop") && html.contains("delayMs must be"), "the report lists the failed run and why");
    }

    @Execution(ExecutionMode.CONCURRENT)
    @Test
    void aComparisonWithoutAnyResultStaysIncompleteSayingWhy() throws Exception {
        Path root = root("nothing");
        Ran r = run(java(root, false, System.getProperty("java.class.path"), ProfileRunProbe.class.getName(), "broken"));
        assertEquals(1, r.exit(), r.all());
        Path dir = runFolder(root);
        assertTrue(dir.getFileName().toString().endsWith(RunFolder.INCOMPLETE_SUFFIX), "no result, no finished run: " + dir);
        String why = Files.readString(dir.resolve(RunFolder.MARKER));
        assertTrue(why.startsWith("no run produced a result: broken/noop: round 1/1: ") && why.contains("delayMs"), why);
        assertTrue(r.err().stream().anyMatch(l -> l.startsWith("bench: no run produced a result; see ")), r.all());
    }

    static boolean isJmhFork(ProcessHandle h) {
        return h.info().arguments().map(a -> Arrays.asList(a).contains("org.openjdk.jmh.runner.ForkedMain")).orElse(false);
    }

    /** Ends a process and whatever it started that is still there (this test's own processes only). */
    static void endTree(ProcessHandle h) {
        h.descendants().forEach(ProcessHandle::destroyForcibly);
        h.destroyForcibly();
    }
}
