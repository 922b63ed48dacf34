package clientbench.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code ./bench report [run dir]}: executes analysis.ipynb headless (nbconvert) against one run and
 * writes a self-contained {@code <run dir>/report.html}. The launcher provides the Python venv and
 * passes its interpreter as {@code -Dclientbench.python}.
 */
@Command(name = "report", description = "Renders analysis.ipynb into <run dir>/report.html (default: the newest run).")
final class Report implements Callable<Integer> {

    @Parameters(arity = "0..1", paramLabel = "RUN_DIR", description = "a folder under results/")
    Path runDir;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this text")
    boolean help;

    private static final long TIMEOUT_MINUTES = 10;

    @Override
    public Integer call() throws Exception {
        Path root = root();
        Path dir = runDir != null ? runDir : newestRun(root.resolve("results"));
        if (dir == null) {
            System.err.println("bench: no finished run under " + root.resolve("results") + "; run ./bench first");
            return 1;
        }
        if (!Files.isDirectory(dir)) {
            System.err.println("bench: " + dir + " is not a folder");
            return 1;
        }
        if (!Files.isRegularFile(dir.resolve("results.json"))) {
            System.err.println("bench: " + dir.resolve("results.json") + " is missing: not a clientbench run folder");
            return 1;
        }
        return render(dir, System.out) ? 0 : 1;
    }

    static Path root() {
        return Path.of(System.getProperty("clientbench.root", "."));
    }

    static Path newestRun(Path results) throws IOException {
        if (!Files.isDirectory(results)) {
            return null;
        }
        try (Stream<Path> s = Files.list(results)) {
            return s.filter(Files::isDirectory)
                    .filter(p -> !p.getFileName().toString().endsWith(RunFolder.INCOMPLETE_SUFFIX))
                    .filter(p -> Files.isRegularFile(p.resolve("results.json")))
                    .max(Comparator.comparing(p -> p.getFileName().toString())).orElse(null);
        }
    }

    /** Runs the notebook; its output goes to {@code out}. True when report.html was written. */
    static boolean render(Path dir, PrintStream out) throws IOException, InterruptedException {
        String python = System.getProperty("clientbench.python");
        Path notebook = root().resolve("analysis.ipynb");
        if (python == null || !Files.isExecutable(Path.of(python))) {
            System.err.println("bench: no Python environment for the report (the launcher makes .venv; run ./bench report)");
            return false;
        }
        // A missing or malformed file gets one line naming it, not a notebook traceback.
        Process check = new ProcessBuilder(python, root().resolve("analysis").resolve("clientbench_analysis.py").toString(),
                "check", dir.toAbsolutePath().toString()).redirectErrorStream(true).start();
        String checked = new String(check.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
        if (check.waitFor() != 0) {
            System.err.println("bench: " + checked.replaceFirst("^report: ", ""));
            return false;
        }
        List<String> cmd = List.of(python, "-m", "nbconvert", "--to", "html", "--execute",
                "--ExecutePreprocessor.timeout=600", "--output-dir", dir.toAbsolutePath().toString(),
                "--output", "report.html.tmp", notebook.toAbsolutePath().toString());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        // CLIENTBENCH_RUNS, when set, lists the runs to compare (the report still goes into dir).
        String runs = System.getenv("CLIENTBENCH_RUNS");
        pb.environment().put("CLIENTBENCH_RUNS", runs != null && !runs.isBlank() ? runs : dir.toAbsolutePath().toString());
        Path log = dir.resolve("report.log");
        pb.redirectOutput(log.toFile());
        out.println("bench: rendering the report ...");
        Process p = pb.start();
        if (!p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            System.err.println("bench: the report took over " + TIMEOUT_MINUTES + " minutes; see " + log);
            return false;
        }
        Path produced = dir.resolve("report.html.tmp.html");
        if (p.exitValue() != 0 || !Files.isRegularFile(produced)) {
            System.err.println("bench: the report failed; see " + log + " (last lines below)");
            List<String> lines = Files.readAllLines(log);
            lines.subList(Math.max(0, lines.size() - 8), lines.size()).forEach(l -> System.err.println("  " + l));
            Files.deleteIfExists(produced);
            return false;
        }
        Files.move(produced, dir.resolve("report.html"), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return true;
    }
}
