package clientbench.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code ./bench report [run dir]}: runs analysis.ipynb headless into a self-contained report.html and ends with the
 * decision table; {@code --compare A B} says whether two runs agree, into {@code B/compare-<A>.html}; {@code --readme}
 * writes main.png and README.md's generated blocks (from an A/A upgrade run: its resolution block; with {@code --compare
 * A B}: B's blocks and the repeatability block of the two). The launcher passes its venv's Python
 * ({@code -Dclientbench.python}).
 */
@Command(name = "report", description = {"Renders analysis.ipynb into <run dir>/report.html (default: the newest run).",
        "With --compare A B: whether the runs agree, and both side by side, into B/compare-<A>.html.",
        "With --readme: also <run dir>/main.png and README.md's generated blocks, from that run;",
        "from an A/A upgrade run (./bench upgrade CLIENT V V), docs/reference/verdict.md's resolution block;",
        "with --readme --compare A B: B's report and blocks, and the verdict page's repeatability block of A and B."})
final class Report implements Callable<Integer>, Bench.Checked {

    @Parameters(arity = "0..1", paramLabel = "RUN_DIR", description = "a folder under results/")
    Path runDir;

    @Option(names = "--compare", arity = "2", paramLabel = "RUN_DIR", description = "two run folders: the earlier, then the later")
    List<Path> compare;

    @Option(names = "--readme", description = "also write <run dir>/main.png and README.md's generated blocks from the run (an A/A run: the resolution block; with --compare A B: B's, and how A and B agree)")
    boolean readme;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this text")
    boolean help;

    private static final long TIMEOUT_MINUTES = 10;
    private List<Path> runs;

    @Override
    public int check() throws IOException {
        if (compare != null && runDir != null) {
            System.err.println("bench: give one run folder, or --compare A B, not both");
            return 2;
        }
        List<Path> given = compare != null ? compare : runDir != null ? List.of(runDir) : List.of();
        runs = new ArrayList<>();
        if (given.isEmpty()) {
            Path newest = newestRun(root().resolve("results"));
            if (newest == null) {
                System.err.println("bench: no finished run under " + root().resolve("results") + "; run ./bench first");
                return 1;
            }
            runs.add(newest);
        }
        for (Path dir : given) {
            String problem = problem(dir);
            if (problem != null) {
                System.err.println("bench: " + problem);
                return 1;
            }
            runs.add(dir);
        }
        return 0;
    }

    /** Null when {@code dir} is a run folder the notebook can read; else why not. */
    static String problem(Path dir) {
        if (!Files.isDirectory(dir)) {
            return dir + " is not a folder";
        }
        if (!Files.isRegularFile(dir.resolve("results.json"))) {
            return dir.resolve("results.json") + " is missing: not a clientbench run folder";
        }
        return null;
    }

    @Override
    public Integer call() throws Exception {
        int checked = check();
        if (checked != 0) {
            return checked;
        }
        if (runs.size() == 1) {
            Path run = runs.get(0);
            String verdict = decide(run);
            if (verdict == null || !render(run, System.out)) {
                return 1; // why is said
            }
            boolean written = !readme
                    || analysis(System.out, "readme", run.toAbsolutePath().toString(), root().resolve("README.md").toString());
            System.out.print(verdict);
            System.out.println("bench: report " + run.resolve("report.html"));
            return written ? 0 : 1;
        }
        Path a = runs.get(0);
        Path b = runs.get(1);
        if (readme) {
            // B is the reference: its own report and README's blocks from it, then how A and B agree.
            String verdict = decide(b);
            if (verdict == null || !render(b, System.out) || !analysis(System.out, "readme",
                    b.toAbsolutePath().toString(), root().resolve("README.md").toString(), a.toAbsolutePath().toString())) {
                return 1;
            }
            System.out.print(verdict);
        }
        if (!analysis(System.out, "compare", a.toAbsolutePath().toString(), b.toAbsolutePath().toString())) {
            return 1;
        }
        String name = "compare-" + a.toAbsolutePath().normalize().getFileName() + ".html";
        boolean ok = render(runs, b, name, System.out);
        System.out.println(ok ? "bench: report " + b.resolve(name) : "bench: the comparison could not be rendered");
        return ok ? 0 : 1;
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
                    .filter(p -> Files.isRegularFile(p.resolve("summary.json"))) // what the report reads
                    .max(Comparator.comparing(p -> p.getFileName().toString())).orElse(null);
        }
    }

    /** The Python of the launcher's venv, or null (said on stderr). */
    static String python() {
        String python = System.getProperty("clientbench.python");
        if (python == null || !Files.isExecutable(Path.of(python))) {
            System.err.println("bench: no Python environment for the report (the launcher makes .venv; run ./bench report)");
            return null;
        }
        return python;
    }

    /**
     * Decides the run's verdict once (analysis: decide, which writes it into summary.json and results.csv) and returns
     * its words for the terminal, the same as the report's first screen; null when it could not (said on stderr).
     */
    static String decide(Path run) throws IOException, InterruptedException {
        return decided(run, "decide");
    }

    /**
     * Decides an upgrade's run once (analysis: upgrade, which writes each figure's ratio into summary.json and
     * results.csv, and upgrade.png) and returns its words for the terminal; null when it could not (said on stderr).
     */
    static String upgrade(Path run) throws IOException, InterruptedException {
        return decided(run, "upgrade");
    }

    private static String decided(Path run, String command) throws IOException, InterruptedException {
        java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8)) {
            return analysis(out, command, run.toAbsolutePath().toString()) ? text.toString(StandardCharsets.UTF_8) : null;
        }
    }

    /** Runs one command of the analysis module; its output to {@code out}, or its one-line error to stderr. */
    private static boolean analysis(PrintStream out, String... args) throws IOException, InterruptedException {
        return python(out, analysisModule(), args);
    }

    /** Runs a module of analysis/ with the launcher's venv; its output to {@code out}, or its one-line error to stderr. */
    static boolean python(PrintStream out, Path module, String... args) throws IOException, InterruptedException {
        String python = python();
        if (python == null) {
            return false;
        }
        List<String> cmd = new ArrayList<>(List.of(python, module.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            System.err.println("bench: " + text.trim().replaceFirst("^report: ", ""));
            return false;
        }
        out.print(text);
        return true;
    }

    static Path analysisModule() {
        return root().resolve("analysis").resolve("clientbench_cli.py");
    }

    /** Runs the notebook on one run into its report.html; its output goes to {@code out}. True when written. */
    static boolean render(Path dir, PrintStream out) throws IOException, InterruptedException {
        // CLIENTBENCH_RUNS, when set, lists the runs to compare (an alias of --compare; the report still goes into dir).
        String runs = System.getenv("CLIENTBENCH_RUNS");
        List<Path> read = runs != null && !runs.isBlank()
                ? Stream.of(runs.split(File.pathSeparator)).filter(s -> !s.isBlank()).map(Path::of).toList()
                : List.of(dir);
        return render(read, dir, "report.html", out);
    }

    /** Runs the notebook on {@code runs} (the last is the one it judges) into {@code dir/name}. True when written. */
    static boolean render(List<Path> runs, Path dir, String name, PrintStream out) throws IOException, InterruptedException {
        String python = python();
        if (python == null) {
            return false;
        }
        // A missing or malformed file gets one line naming it, not a notebook traceback.
        for (Path run : runs) {
            Process check = new ProcessBuilder(python, analysisModule().toString(), "check", run.toAbsolutePath().toString())
                    .redirectErrorStream(true).start();
            String checked = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (check.waitFor() != 0) {
                System.err.println("bench: " + checked.replaceFirst("^report: ", ""));
                return false;
            }
        }
        // The notebook executed, its outputs without code in one self-contained page, written whole or not at all.
        Path produced = dir.resolve(name);
        List<String> cmd = new ArrayList<>(List.of(python, analysisModule().toString(), "render",
                produced.toAbsolutePath().toString()));
        runs.forEach(r -> cmd.add(r.toAbsolutePath().toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        Path log = dir.resolve("report.log");
        pb.redirectOutput(log.toFile());
        out.println("bench: rendering the report ...");
        Process p = pb.start();
        if (!p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            System.err.println("bench: the report took over " + TIMEOUT_MINUTES + " minutes; see " + log);
            return false;
        }
        if (p.exitValue() != 0) {
            System.err.println("bench: the report failed; see " + log + " (last lines below)");
            List<String> lines = Files.readAllLines(log);
            lines.subList(Math.max(0, lines.size() - 8), lines.size()).forEach(l -> System.err.println("  " + l));
            return false;
        }
        return true;
    }
}
