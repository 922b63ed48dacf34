package clientbench.cli;

import clientbench.stub.StubServer;
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
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Bad input across the command line (./bench, ./bench report, ./bench stub, JMH parameters, the
 * launcher itself): each gives a clear first line naming the problem and a non-zero exit, before any
 * work; and nothing under results/ is created, overwritten or half-written.
 */
@org.junit.jupiter.api.Tag("reliability") // a long test: mvn verify (Failsafe), not mvn package
@Timeout(120)
class CliBadInputTest {
    @TempDir
    static Path root;
    static Path results;
    static String before;

    @BeforeAll
    static void anEarlierRun() throws IOException {
        results = root.resolve("results");
        Path earlier = Files.createDirectories(results.resolve("20260101-000000-host"));
        Files.writeString(earlier.resolve("results.json"), "[]");
        before = listing();
    }

    record Result(int exit, List<String> err) {
        String first() {
            return err.isEmpty() ? "" : err.get(0);
        }
    }

    static Result java(String mainClass, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(clientbench.harness.StubProcess.jdkFlags()); // as ./bench runs them
        cmd.addAll(List.of("-Dclientbench.root=" + root, "-cp", System.getProperty("java.class.path"), mainClass));
        cmd.addAll(List.of(args));
        return run(new ProcessBuilder(cmd));
    }

    static Result run(ProcessBuilder pb) throws Exception {
        Path err = Files.createTempFile("cli", ".err");
        Process p = pb.redirectError(err.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "ended: " + pb.command());
        List<String> lines = Files.readAllLines(err, StandardCharsets.UTF_8).stream()
                .collect(Collectors.toList());
        Files.delete(err);
        assertEquals(before, listing(), "results/ untouched by " + pb.command());
        return new Result(p.exitValue(), lines);
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

    static void usageError(Result r, String message) {
        assertEquals(2, r.exit(), r.err().toString());
        assertTrue(r.first().contains(message), r.first());
    }

    static void oneLineError(Result r, String message) {
        assertEquals(1, r.exit(), r.err().toString());
        assertEquals(1, r.err().size(), r.err().toString());
        assertTrue(r.first().contains(message), r.first());
    }

    static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void unknownOption() throws Exception {
        usageError(bench("--bogus"), "Unknown option: '--bogus'");
    }

    @Test
    void unknownProfile() throws Exception {
        usageError(bench("--profile", "huge"), "unknown profile 'huge'; valid: quick, standard, full");
    }

    @Test
    void unknownClient() throws Exception {
        usageError(bench("--clients", "jdk,curl"), "unknown client 'curl'; valid: ahc");
    }

    @Test
    void zeroOrNegativeRate() throws Exception {
        usageError(bench("--", "-p", "rate=0"), "rate must be > 0");
        usageError(bench("--", "-p", "rate=-100"), "rate must be > 0");
    }

    @Test
    void zeroConcurrency() throws Exception {
        usageError(bench("--", "-p", "concurrency=0"), "concurrency must be > 0");
    }

    @Test
    void unknownProtocol() throws Exception {
        usageError(bench("--", "-p", "protocol=http3"), "unknown protocol 'http3'");
    }

    @Test
    void jdkThatIsNotOne() throws Exception {
        usageError(bench("--jdk", root.resolve("no-such-jdk").toString()), "no bin/java there");
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
        Path python = Path.of(System.getProperty("user.dir"), ".venv", "bin", "python");
        assumeTrue(Files.isExecutable(python), "the report's venv (./bench test makes it)");
        Path bad = Files.createDirectories(root.resolve("bad-run"));
        Files.writeString(bad.resolve("results.json"), "[{\"benchmark\": ");
        Files.writeString(bad.resolve("env.json"), "{\"runs\": []}");
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dclientbench.root=" + System.getProperty("user.dir"), "-Dclientbench.python=" + python,
                "-cp", System.getProperty("java.class.path"), Bench.class.getName(), "report", bad.toString());
        Result r = run(new ProcessBuilder(cmd));
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
        ProcessBuilder pb = new ProcessBuilder("bash", "bench", "stub", "--help");
        Map<String, String> env = pb.environment();
        env.put("BENCH_JVM_DIR", root.resolve("no-jvms").toString());
        if (Files.isDirectory(jdk17)) {
            env.put("JAVA_HOME", jdk17.toString());
        } else {
            env.remove("JAVA_HOME");
        }
        oneLineError(run(pb), "no JDK >= 21 found");
    }

    @Test
    void launcherUnknownCommand() throws Exception {
        Result r = run(new ProcessBuilder("bash", "bench", "frobnicate"));
        usageError(r, "unknown command 'frobnicate'");
    }
}
