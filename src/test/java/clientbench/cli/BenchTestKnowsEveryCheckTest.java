package clientbench.cli;

import clientbench.testkit.Prerequisites;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.commons.annotation.Testable;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./bench test} names every check that did not run, from the list of checks it should run (CHECKS): the list
 * holds every test class JUnit would run here, with the runner whose includes and tag take it, and every pytest file;
 * and the script that reads it names a skipped case and a check without a report, which under CI=true fails the run.
 */
@Timeout(60)
class BenchTestKnowsEveryCheckTest {

    static final Path REPO = Path.of(System.getProperty("user.dir"));
    static final Path CHECKS = REPO.resolve("src/test/checks.txt");
    static final Path SCRIPT = REPO.resolve("scripts/checks-not-run.py");
    /** The file names each runner takes (pom.xml: Failsafe's includes; Surefire's defaults), and the tag between them. */
    static final Pattern FAILSAFE_NAMES = Pattern.compile(".*Test");
    static final Pattern SUREFIRE_NAMES = Pattern.compile("Test.*|.*Test|.*Tests|.*TestCase");
    static final String RELIABILITY = "reliability";

    @Test
    void theListHoldsEveryTestClassWithItsRunnerAndEveryPytestFile() throws Exception {
        TreeSet<String> found = new TreeSet<>();
        List<String> neverRun = new ArrayList<>();
        Path classes = Path.of(getClass().getProtectionDomain().getCodeSource().getLocation().toURI());
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String name = classes.relativize(f).toString().replace('/', '.').replaceAll("\\.class$", "");
                Class<?> c = Class.forName(name, false, getClass().getClassLoader());
                if (name.contains("$") || Modifier.isAbstract(c.getModifiers()) || ReflectionSupport.findMethods(c,
                        m -> AnnotationSupport.isAnnotated(m, Testable.class), HierarchyTraversalMode.TOP_DOWN).isEmpty()) {
                    continue;
                }
                boolean reliability = AnnotationSupport.findRepeatableAnnotations(c, Tag.class).stream()
                        .anyMatch(t -> t.value().equals(RELIABILITY));
                Pattern takes = reliability ? FAILSAFE_NAMES : SUREFIRE_NAMES;
                if (!takes.matcher(c.getSimpleName()).matches()) {
                    neverRun.add(name);
                }
                found.add((reliability ? "failsafe " : "surefire ") + name);
            }
        }
        try (Stream<Path> files = Files.list(REPO.resolve("analysis"))) {
            files.map(p -> p.getFileName().toString()).filter(n -> n.matches("test_.*\\.py|.*_test\\.py"))
                    .forEach(n -> found.add("pytest analysis/" + n));
        }
        assertTrue(found.size() > 100, "the scan found the test classes: " + found);
        assertEquals(List.of(), neverRun, "test classes whose names their runner's includes leave out");
        TreeSet<String> listed = new TreeSet<>();
        for (String line : Files.readAllLines(CHECKS)) {
            String l = line.replaceAll("#.*", "").trim();
            if (!l.isEmpty()) {
                listed.add(l);
            }
        }
        TreeSet<String> missing = new TreeSet<>(found);
        missing.removeAll(listed);
        TreeSet<String> stale = new TreeSet<>(listed);
        stale.removeAll(found);
        assertEquals("", String.join("\n", missing), "lines to add to " + REPO.relativize(CHECKS));
        assertEquals("", String.join("\n", stale), "lines to take out of " + REPO.relativize(CHECKS));
    }

    @Test
    void aSkippedCaseAndACheckWithoutAFreshReportAreNamedAndFailTheRunUnderCi(@TempDir Path dir) throws Exception {
        Path checks = Files.writeString(dir.resolve("checks.txt"), """
                # runner check
                surefire a.SkipsTest
                surefire a.OldReportTest
                failsafe b.NoReportTest
                pytest analysis/test_x.py
                """);
        Path surefire = Files.createDirectories(dir.resolve("surefire-reports"));
        Path old = report(surefire.resolve("TEST-a.OldReportTest.xml"), "a.OldReportTest", "works", "");
        Files.setLastModifiedTime(old, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
        Path marker = Files.writeString(dir.resolve("started"), "");
        Files.setLastModifiedTime(marker, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        report(surefire.resolve("TEST-a.SkipsTest.xml"), "a.SkipsTest", "counts",
                "<skipped message=\"perf missing: apt-get install linux-perf\" type=\"org.opentest4j.TestAbortedException\"/>");
        Path pytest = report(dir.resolve("pytest-junit.xml"), "analysis.test_x", "test_y", "");
        Path failsafe = dir.resolve("failsafe-reports"); // never made: Failsafe did not run

        List<String> expected = List.of(
                "bench: 3 check(s) not run here (each: why, and how to get it):",
                "bench: not run: a.SkipsTest.counts: perf missing: apt-get install linux-perf",
                "bench: not run (no failsafe report: Maven's arguments or an earlier failure left them out): b.NoReportTest",
                "bench: not run (no surefire report: Maven's arguments or an earlier failure left them out): a.OldReportTest");
        assertEquals(new Ran(0, expected), script(false, marker, checks, pytest, surefire, failsafe));
        Ran underCi = script(true, marker, checks, pytest, surefire, failsafe);
        assertEquals(1, underCi.exit(), underCi.toString());
        assertEquals("bench: 3 check(s) not run here, which under CI=true fails the run (each: why, and how to get it):",
                underCi.lines().get(0));

        // Each listed check in a fresh report, none skipped: the all-clear, unless a case failed.
        report(old, "a.OldReportTest", "works", "");
        report(surefire.resolve("TEST-a.SkipsTest.xml"), "a.SkipsTest", "counts", "");
        report(Files.createDirectories(failsafe).resolve("TEST-b.NoReportTest.xml"), "b.NoReportTest", "runs", "");
        assertEquals(new Ran(0, List.of("bench: every check ran")), script(true, marker, checks, pytest, surefire, failsafe));
        report(pytest, "analysis.test_x", "test_y", "<failure message=\"assert 1 == 2\"/>");
        assertEquals(new Ran(0, List.of("bench: every check ran, and 1 failed (their lines above)")),
                script(true, marker, checks, pytest, surefire, failsafe));
    }

    /** A JUnit XML report of one test case, as Surefire and pytest write them; {@code inner}: its skip or failure. */
    private static Path report(Path file, String className, String caseName, String inner) throws IOException {
        return Files.writeString(file, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"" + className
                + "\" tests=\"1\">\n  <testcase name=\"" + caseName + "\" classname=\"" + className + "\">" + inner
                + "</testcase>\n</testsuite>\n");
    }

    record Ran(int exit, List<String> lines) {
    }

    private static Ran script(boolean ci, Path... args) throws Exception {
        String python = System.getenv().getOrDefault("PYTHON", "python3");
        List<String> cmd = new ArrayList<>(List.of(python, SCRIPT.toString()));
        Stream.of(args).map(Path::toString).forEach(cmd::add);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.remove("CI");
        if (ci) {
            env.put("CI", "true");
        }
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            Prerequisites.require(false, python + " (./bench test runs the script with it): " + e.getMessage());
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the script still ran after 30 s: " + out);
        return new Ran(p.exitValue(), out.lines().toList());
    }
}
