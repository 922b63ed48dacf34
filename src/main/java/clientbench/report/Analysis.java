package clientbench.report;

import clientbench.results.Checkout;
import clientbench.results.Environment;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The one bridge to the Python analysis: each call runs a command of analysis/cli.py (or another module of
 * analysis/) with the launcher's venv ({@code -Dclientbench.python}); the verdict, an upgrade's ratios, a look, the
 * report. What it judges is judged there, once; here its answer is passed on.
 */
public final class Analysis {

    private static final long TIMEOUT_MINUTES = 10;

    private Analysis() {
    }

    /** The Python of the launcher's venv, or null (said on stderr). */
    public static String python() {
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
    public static String decide(Path run) throws IOException, InterruptedException {
        return answer("decide", run.toAbsolutePath().toString());
    }

    /**
     * Decides an upgrade's run once (analysis: upgrade, which writes each figure's ratio into summary.json and
     * results.csv, and upgrade.png) and returns its words for the terminal; null when it could not (said on stderr).
     */
    public static String upgrade(Path run) throws IOException, InterruptedException {
        return answer("upgrade", run.toAbsolutePath().toString());
    }

    /**
     * The look at a run's rounds so far under {@code --until-decided} (analysis: look): its JSON answer, per figure the
     * pairs apart, alike and open; null when it could not (said on stderr).
     */
    public static String look(Path run, String shape) throws IOException, InterruptedException {
        return answer("look", run.toAbsolutePath().toString(), shape);
    }

    /**
     * Before an upgrade's gated run (analysis: foresee): per gated figure the change {@code pairs} pairs of {@code
     * shapes} could detect, from the newest A/A run (on this CPU model where there is one), and the pairs a threshold
     * below it would need. False when the
     * thresholds file was refused (said in one line).
     */
    public static boolean foresee(Path thresholds, int pairs, List<String> shapes, PrintStream out)
            throws IOException, InterruptedException {
        return run(out, "foresee", thresholds.toAbsolutePath().toString(), Integer.toString(pairs), String.join(",", shapes),
                Environment.cpuModel());
    }

    /**
     * The gate over an upgrade's runs (analysis: gate, thresholds null: none, every figure shown only): its lines to
     * {@code out}, the Markdown summary into {@code markdown}; its exit status (0 no regression shown, 1 a regression
     * beyond a threshold, 3 a threshold the run could not resolve; 2 when it could not judge, said on stderr).
     */
    public static int gate(Path thresholds, Path markdown, List<Path> runs, PrintStream out)
            throws IOException, InterruptedException {
        String python = python();
        if (python == null) {
            return 2;
        }
        List<String> cmd = new ArrayList<>(List.of(python, analysisModule().toString(), "gate",
                thresholds == null ? "-" : thresholds.toAbsolutePath().toString(), markdown.toAbsolutePath().toString()));
        runs.forEach(r -> cmd.add(r.toAbsolutePath().toString()));
        // Its error line to the terminal's stderr as it comes; its table and status line to out.
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        out.print(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        return p.waitFor();
    }

    private static String answer(String... args) throws IOException, InterruptedException {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8)) {
            return run(out, args) ? text.toString(StandardCharsets.UTF_8) : null;
        }
    }

    /** Runs one command of the analysis module; its output to {@code out}, or its one-line error to stderr. */
    public static boolean run(PrintStream out, String... args) throws IOException, InterruptedException {
        return python(out, analysisModule(), args);
    }

    /** Runs a module of analysis/ with the launcher's venv; its output to {@code out}, or its one-line error to stderr. */
    public static boolean python(PrintStream out, Path module, String... args) throws IOException, InterruptedException {
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
        return Checkout.root().resolve("analysis").resolve("cli.py");
    }

    /** Runs the notebook on one run into its report.html; its output goes to {@code out}. True when written. */
    public static boolean render(Path dir, PrintStream out) throws IOException, InterruptedException {
        // CLIENTBENCH_RUNS, when set, lists the runs to compare (an alias of --compare; the report still goes into dir).
        String runs = System.getenv("CLIENTBENCH_RUNS");
        List<Path> read = runs != null && !runs.isBlank()
                ? Stream.of(runs.split(File.pathSeparator)).filter(s -> !s.isBlank()).map(Path::of).toList()
                : List.of(dir);
        return render(read, dir, "report.html", out);
    }

    /** Runs the notebook on {@code runs} (the last is the one it judges) into {@code dir/name}. True when written. */
    public static boolean render(List<Path> runs, Path dir, String name, PrintStream out) throws IOException, InterruptedException {
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
