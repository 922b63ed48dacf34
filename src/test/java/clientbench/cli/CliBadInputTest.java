package clientbench.cli;

import clientbench.stub.StubServer;
import clientbench.testkit.ChildJvm;
import clientbench.testkit.Prerequisites;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad input anywhere (./bench, report, stub, JMH parameters, the launcher) gives one line naming it before any work:
 * exit 2 and the command's usage for a usage error, else exit 1 and the line alone; nothing under results/ changes. The
 * launcher runs from its own copy ({@link #root}), so the results/ listed after every command is this test's.
 */
@org.junit.jupiter.api.Tag("reliability") // a long test: mvn verify (Failsafe), not mvn package
@Timeout(120)
class CliBadInputTest {
    @TempDir
    static Path root;
    static Path results;
    static String before;

    static final Path REPO = Path.of(System.getProperty("user.dir"));
    /** What each command's --help prints: a usage error prints it after its one line. */
    static List<String> runUsage;
    static List<String> reportUsage;
    static List<String> launcherUsage;

    @BeforeAll
    static void aCopyOfTheLauncherWithTheJarAndAnEarlierRun() throws Exception {
        Path jar = REPO.resolve("target").resolve("benchmarks.jar");
        assertTrue(Files.isRegularFile(jar), "runs after mvn package (Failsafe): the launcher's Java side is the jar");
        for (String f : List.of("bench", "pom.xml", "src/main/resources/clientbench/jvm/jdk-flags.txt")) {
            Path to = root.resolve(f);
            Files.createDirectories(to.getParent());
            Files.copy(REPO.resolve(f), to);
            Files.setLastModifiedTime(to, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
        }
        Files.createDirectories(root.resolve("target"));
        Files.copy(jar, root.resolve("target").resolve("benchmarks.jar")); // newer than every source: no build
        results = root.resolve("results");
        Path earlier = Files.createDirectories(results.resolve("20260101-000000-host"));
        Files.writeString(earlier.resolve("results.json"), "[]");
        before = listing();
        runUsage = help(java(Bench.class.getName(), "run", "--help"));
        reportUsage = help(java(Bench.class.getName(), "report", "--help"));
        launcherUsage = help(run(new ProcessBuilder("bash", root.resolve("bench").toString(), "--help")));
    }

    static List<String> help(Result r) {
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().size() > 3 && r.err().isEmpty(), r.toString());
        return r.out();
    }

    record Result(int exit, List<String> err, List<String> out) {
        String first() {
            return err.isEmpty() ? "" : err.get(0);
        }
    }

    static Result java(String mainClass, String... args) throws Exception {
        return run(new ProcessBuilder(ChildJvm.main(mainClass).jvmArgs("-Dclientbench.root=" + root).args(args).command()));
    }

    /** The report's venv, which ./bench test makes; a plain mvn verify may have none (then, under CI, a failure). */
    static Path venvPython() {
        Path python = Path.of(System.getProperty("user.dir"), ".venv", "bin", "python");
        Prerequisites.require(Files.isExecutable(python), "the report's venv " + python + " (./bench test makes it)");
        return python;
    }

    static Result run(ProcessBuilder pb) throws Exception {
        Path err = Files.createTempFile("cli", ".err");
        Path out = Files.createTempFile("cli", ".out");
        Process p = pb.redirectError(err.toFile()).redirectOutput(out.toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "ended: " + pb.command());
        List<String> errLines = Files.readAllLines(err, StandardCharsets.UTF_8);
        List<String> outLines = Files.readAllLines(out, StandardCharsets.UTF_8);
        Files.delete(err);
        Files.delete(out);
        assertEquals(before, listing(), "results/ untouched by " + pb.command());
        return new Result(p.exitValue(), errLines, outLines);
    }

    static String listing() throws IOException {
        try (Stream<Path> s = Files.walk(results)) {
            return s.map(p -> results.relativize(p) + ":" + p.toFile().length()).sorted().collect(Collectors.joining(","));
        }
    }

    static Result bench(String... args) throws Exception {
        List<String> a = new ArrayList<>(List.of("run"));
        a.addAll(List.of(args));
        return java(Bench.class.getName(), a.toArray(String[]::new));
    }

    /** Exit 2, one line naming the problem, then exactly {@code usage} (empty: the line alone). */
    static void usageError(Result r, String message, List<String> usage) {
        assertEquals(2, r.exit(), r.err().toString());
        assertTrue(r.first().startsWith("bench: ") && r.first().contains(message), r.first());
        assertEquals(usage, r.err().subList(1, r.err().size()), "after its one line, the usage and nothing else");
    }

    static void oneLineError(Result r, String message) {
        assertEquals(1, r.exit(), r.err().toString());
        assertEquals(1, r.err().size(), r.err().toString());
        assertTrue(r.first().matches("(bench|stub): .*") && r.first().contains(message), "names the program and the problem: " + r.first());
    }

    static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void unknownOption() throws Exception {
        usageError(bench("--bogus"), "Unknown option: '--bogus'", runUsage);
    }

    @Test
    void unknownProfile() throws Exception {
        usageError(bench("--profile", "huge"), "unknown profile 'huge'; valid: quick, standard, full, smoke", runUsage);
    }

    @Test
    void unknownClient() throws Exception {
        usageError(bench("--clients", "jdk,curl"), "unknown client 'curl'; valid: ahc", runUsage);
    }

    @Test
    void untilDecidedOutOfRangeOrWithoutTheCommonRateInRounds() throws Exception {
        usageError(bench("--until-decided", "1"), "--until-decided 1: the most rounds, from 2 to 12", runUsage);
        usageError(bench("--profile", "interleaved", "--until-decided", "4"),
                "--until-decided: profile interleaved has no common rate (rate-4000) in rounds", runUsage);
    }

    @Test
    void zeroOrNegativeRate() throws Exception {
        usageError(bench("--", "-p", "rate=0"), "rate must be > 0", runUsage);
        usageError(bench("--", "-p", "rate=-100"), "rate must be > 0", runUsage);
    }

    @Test
    void zeroConcurrency() throws Exception {
        usageError(bench("--", "-p", "concurrency=0"), "concurrency must be > 0", runUsage);
    }

    @Test
    void unknownProtocol() throws Exception {
        usageError(bench("--", "-p", "protocol=http3"), "unknown protocol 'http3'", runUsage);
    }

    @Test
    void jdkThatIsNotOne() throws Exception {
        usageError(bench("--jdk", root.resolve("no-such-jdk").toString()), "no bin/java there", runUsage);
    }

    @Test
    void malformedTargetUrl() throws Exception {
        oneLineError(bench("--target", "ht!tp://x"), "invalid target URL 'ht!tp://x'");
    }

    @Test
    void unreachableTarget() throws Exception {
        int port = closedPort();
        oneLineError(bench("--target", "http://127.0.0.1:" + port), "target http://127.0.0.1:" + port + " is unreachable");
    }

    // Your own service: each request option that is wrong gets one line, before any run (and a malformed value
    // exit 2, a file or server that is not as said exit 1).

    static void oneLine(Result r, int exit, String message) {
        assertEquals(exit, r.exit(), r.err().toString());
        assertEquals(1, r.err().size(), r.err().toString());
        assertTrue(r.first().contains(message), r.first());
    }

    @Test
    void bodyFileThatCannotBeRead() throws Exception {
        String target = "http://127.0.0.1:" + closedPort();
        oneLine(bench("--target", target, "--body-file", root.resolve("no-such-body.json").toString()), 1,
                "--body-file " + root.resolve("no-such-body.json") + ": no such file");
        oneLine(bench("--target", target, "--body-file", root.toString()), 1, "--body-file " + root + ": not a readable file");
    }

    @Test
    void malformedHeader() throws Exception {
        String target = "http://127.0.0.1:" + closedPort();
        oneLine(bench("--target", target, "--header", "X-Token t"), 2, "header 'X-Token t' is not 'Name: value'");
        oneLine(bench("--target", target, "--header", "X Token: t"), 2, "invalid header name 'X Token'");
        oneLine(bench("--target", target, "--header", "Connection: close"), 2, "Connection is set by each client itself");
    }

    @Test
    void badMethod() throws Exception {
        String target = "http://127.0.0.1:" + closedPort();
        oneLine(bench("--target", target, "--method", "get"), 2, "method must be an upper-case HTTP token such as GET or POST, was 'get'");
        oneLine(bench("--target", target, "--method", "GE T"), 2, "was 'GE T'");
        Path body = Files.writeString(root.resolve("body.txt"), "x");
        oneLine(bench("--target", target, "--method", "GET", "--body-file", body.toString()), 2, "GET cannot carry a body");
    }

    @Test
    void badStatus() throws Exception {
        String target = "http://127.0.0.1:" + closedPort();
        oneLine(bench("--target", target, "--expect-status", "42"), 2, "--expect-status must be an HTTP status 100-599, was '42'");
        oneLine(bench("--target", target, "--expect-status", "ok"), 2, "--expect-status must be an HTTP status 100-599, was 'ok'");
    }

    @Test
    void requestOptionsWithoutATarget() throws Exception {
        oneLine(bench("--header", "X-Token: t", "--insecure"), 2, "--header, --insecure need --target URL");
    }

    @Test
    void requestFileThatCannotBeRead() throws Exception {
        usageError(bench("--", "-p", "request=" + root.resolve("no-such-request.json")), "request file " + root.resolve("no-such-request.json"), runUsage);
    }

    @Test
    void tlsTargetWhoseCertificateDoesNotVerifyNeedsInsecure() throws Exception {
        try (StubServer tls = StubServer.start(clientbench.stub.StubOptions.loopback().withTls(true))) {
            String target = "https://127.0.0.1:" + tls.port() + "/some/path";
            Result r = bench("--target", target);
            oneLineError(r, "target " + target + ": its TLS certificate does not verify");
            assertTrue(r.first().contains("--insecure"), "names the way out: " + r.first());
            assertEquals(0, java(Bench.class.getName(), "check", "run", "--target", target, "--insecure").exit(),
                    "--insecure: nothing to verify");
        }
    }

    @Test
    void reportOfAMissingFolder() throws Exception {
        oneLineError(java(Bench.class.getName(), "report", root.resolve("nowhere").toString()), "is not a folder");
    }

    @Test
    void reportOfAFolderWithoutResults() throws Exception {
        Path empty = Files.createDirectories(root.resolve("empty-run"));
        oneLineError(java(Bench.class.getName(), "report", empty.toString()), "results.json is missing");
    }

    @Test
    void reportOfMalformedResults() throws Exception {
        Path python = venvPython();
        Path bad = Files.createDirectories(root.resolve("bad-run"));
        Files.writeString(bad.resolve("results.json"), "[{\"benchmark\": ");
        Files.writeString(bad.resolve("env.json"), "{\"runs\": []}");
        Result r = run(new ProcessBuilder(ChildJvm.main(Bench.class).jvmArgs("-Dclientbench.root=" + System.getProperty("user.dir"),
                "-Dclientbench.python=" + python).args("report", bad.toString()).command()));
        oneLineError(r, "results.json: not valid JSON");
        assertTrue(Files.notExists(bad.resolve("report.html")), "no half-written report");
    }

    @Test
    void stubOnAPortInUse() throws Exception {
        try (ServerSocket busy = new ServerSocket(0)) {
            oneLineError(java(StubServer.class.getName(), "--port", Integer.toString(busy.getLocalPort())), "cannot listen on");
        }
    }

    @Test
    void stubOnAnImpossiblePort() throws Exception {
        oneLineError(java(StubServer.class.getName(), "--port", "70000"), "port must be 0-65535");
    }

    @Test
    void launcherWithoutAJdk21() throws Exception {
        Path jdk17 = Path.of("/usr/lib/jvm/java-17-openjdk-amd64");
        ProcessBuilder pb = new ProcessBuilder("bash", root.resolve("bench").toString(), "stub", "--help");
        Map<String, String> env = pb.environment();
        env.put("BENCH_JVM_DIR", root.resolve("no-jvms").toString());
        if (Files.isDirectory(jdk17)) {
            env.put("JAVA_HOME", jdk17.toString());
        } else {
            env.remove("JAVA_HOME");
        }
        Result r = run(pb);
        oneLineError(r, "no JDK >= 21 found");
        assertTrue(r.first().contains("apt-get install openjdk-21-jdk"), "names the fix: " + r.first());
    }

    @Test
    void launcherUnknownCommand() throws Exception {
        Result r = run(new ProcessBuilder("bash", root.resolve("bench").toString(), "frobnicate"));
        usageError(r, "unknown command 'frobnicate'", launcherUsage);
    }

    // The launcher: help and version on every command, and bad input refused before anything is built
    // or installed. Stand-ins for mvn and python leave a mark when run, which proves they were not.

    static Path marks;
    static Path spies;

    @BeforeAll
    static void standIns() throws IOException {
        marks = Files.createDirectories(root.resolve("marks"));
        spies = Files.createDirectories(root.resolve("spies"));
        for (String tool : List.of("mvn", "python3", "pip")) {
            Path f = spies.resolve(tool);
            Files.writeString(f, "#!/bin/sh\ntouch '" + marks.resolve(tool) + "'\nexit 1\n");
            assertTrue(f.toFile().setExecutable(true));
        }
    }

    /** bash DIR/bench ARGS with the stand-ins first on PATH and the test's JDK as JAVA_HOME. */
    static Result launcher(Path dir, Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bash", dir.resolve("bench").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().put("PATH", spies + ":" + System.getenv("PATH"));
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().put("PYTHON", spies.resolve("python3").toString());
        pb.environment().putAll(env);
        return run(pb);
    }

    /** The launcher of {@link #root}, whose results/ this test watches. */
    static Result launcher(String... args) throws Exception {
        return launcher(root, Map.of(), args);
    }

    /** A fresh clone as far as the launcher can tell: the script and what it reads, and no jar. */
    static Path cloneWithoutJar() throws IOException {
        Path clone = root.resolve("clone");
        Path repo = Path.of(System.getProperty("user.dir"));
        for (String f : List.of("bench", "pom.xml", "src/main/resources/clientbench/jvm/jdk-flags.txt")) {
            Path to = clone.resolve(f);
            Files.createDirectories(to.getParent());
            Files.copy(repo.resolve(f), to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        return clone;
    }

    static void nothingRan(Result r) {
        try (Stream<Path> s = Files.list(marks)) {
            assertEquals(List.of(), s.map(p -> p.getFileName().toString()).toList(), "built or installed: " + r);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void helpExitsZeroOnEveryCommandAndRunsNothing() throws Exception {
        for (List<String> args : List.of(List.of("--help"), List.of("-h"), List.of("help"), List.of("test", "--help"),
                List.of("run", "--help"), List.of("--profile", "full", "-h"), List.of("stub", "--help"),
                List.of("jmh", "--help"), List.of("report", "--help"), List.of("notebook", "--help"))) {
            Result r = launcher(args.toArray(String[]::new));
            assertEquals(0, r.exit(), args + ": " + r);
            assertTrue(String.join("\n", r.out()).toLowerCase(java.util.Locale.ROOT).contains("usage"), args + ": " + r.out());
            nothingRan(r);
        }
    }

    @Test
    void versionComesFromTheBuildAndWithoutAJarFromThePom() throws Exception {
        String version = "clientbench " + Version.clientbench();
        assertTrue(version.matches("clientbench \\d+\\.\\d+.*"), "filtered from the pom: " + version);
        for (Result r : List.of(launcher("--version"), launcher("-V"), launcher(cloneWithoutJar(), Map.of(), "--version"))) {
            assertEquals(0, r.exit(), r.toString());
            assertEquals(version, r.out().get(0));
            assertTrue(r.out().get(1).startsWith("JDK " + System.getProperty("java.version") + " ("), r.out().get(1));
            nothingRan(r);
        }
    }

    @Test
    void badInputIsRefusedBeforeAnyBuildOrInstall() throws Exception {
        Path clone = cloneWithoutJar();
        // Without a jar: what the launcher can check itself, so a typo costs no build.
        usageError(launcher(clone, Map.of(), "--profile", "huge"), "unknown profile 'huge'; valid: quick, standard, full, smoke", launcherUsage);
        usageError(launcher(clone, Map.of(), "--profile=huge"), "unknown profile 'huge'", launcherUsage);
        usageError(launcher(clone, Map.of(), "--bogus"), "Unknown option: '--bogus'", launcherUsage);
        usageError(launcher(clone, Map.of(), "--clients"), "Missing required parameter for option '--clients'", launcherUsage);
        usageError(launcher(clone, Map.of(), "--insecure", "--bogus"), "Unknown option: '--bogus'", launcherUsage); // a flag: no value taken
        usageError(launcher(clone, Map.of(), "--header"), "Missing required parameter for option '--header'", launcherUsage);
        usageError(launcher(clone, Map.of(), "frobnicate"), "unknown command 'frobnicate'", launcherUsage);
        for (String nice : List.of("high", "-21", "20", "5-", "--3")) {
            usageError(launcher(clone, Map.of("BENCH_NICE", nice)), "BENCH_NICE must be a nice value from -20 to 19, was '"
                    + nice + "'", launcherUsage);
        }
        assertTrue(Files.notExists(clone.resolve("results")) && Files.notExists(clone.resolve(".venv")), "nothing made in the clone");
        // With the jar: everything, by Java, before the venv.
        usageError(launcher("--clients", "jdk,curl"), "unknown client 'curl'", runUsage);
        usageError(launcher("--", "-p", "rate=0"), "rate must be > 0", runUsage);
        usageError(launcher("--", "-p", "protocol=http3"), "unknown protocol 'http3'", runUsage);
        oneLineError(launcher("report", root.resolve("nowhere").toString()), "is not a folder");
        oneLineError(launcher("notebook", root.resolve("nowhere").toString()), "is not a folder");
        Result r = launcher("--profile", "huge");
        nothingRan(r);
    }

    @Test
    void pythonOlderThan311IsNamedBeforePip() throws Exception {
        Path old = root.resolve("python3.10");
        // Answers the version questions as 3.10 would; anything else (making a venv) leaves a mark.
        Files.writeString(old, "#!/bin/sh\ncase \"$*\" in *print*) echo 3.10 ;; *version_info*) exit 1 ;; *) touch '"
                + marks.resolve("python") + "'; exit 1 ;; esac\n");
        assertTrue(old.toFile().setExecutable(true));
        String fixture = Path.of(System.getProperty("user.dir"), "analysis", "fixtures", "run-small").toString();
        Result r = launcher(root, Map.of("PYTHON", old.toString()), "report", fixture);
        oneLineError(r, "is Python 3.10; the report needs Python >= 3.11");
        assertTrue(r.first().contains("PYTHON="), "names the fix: " + r.first());
        oneLineError(launcher(root, Map.of("PYTHON", "no-such-python"), "report", fixture),
                "no-such-python not found: the report needs Python >= 3.11");
        nothingRan(r);
    }

    @Test
    void compareChecksBothRunsFirst() throws Exception {
        String fixture = Path.of(System.getProperty("user.dir"), "analysis", "fixtures", "run-small").toString();
        String missing = root.resolve("nowhere").toString();
        assertEquals(0, java(Bench.class.getName(), "check", "report", "--compare", fixture, fixture).exit());
        oneLineError(java(Bench.class.getName(), "check", "report", "--compare", fixture, missing), missing + " is not a folder");
        usageError(java(Bench.class.getName(), "report", "--compare", fixture), "requires at least 2 values", reportUsage);
        usageError(java(Bench.class.getName(), "report", fixture, "--compare", fixture, fixture), "not both", List.of());
    }

    @Test
    void compareListsTheChangesThatMatter() throws Exception {
        Path python = venvPython();
        String fixture = Path.of(System.getProperty("user.dir"), "analysis", "fixtures", "run-small").toString();
        Result r = run(new ProcessBuilder(python.toString(), "analysis/cli.py", "compare", fixture, fixture));
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().get(0).startsWith("run-small vs run-small: 0 pairs in opposite order"), r.out().toString());
    }
}
