package clientbench.cli;

import clientbench.results.Checkout;
import clientbench.results.RunFolder;
import clientbench.report.Analysis;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code ./bench report [run dir]}: runs analysis.ipynb headless into a self-contained report.html and ends with the
 * decision table; {@code --compare A B} says whether two runs agree, into {@code B/compare-<A>.html}; {@code --readme}
 * writes main.png and README.md's generated blocks (from an A/A upgrade run: the verdict page's resolution block;
 * with {@code --compare A B}: B's blocks and the verdict page's repeatability block of the two). The launcher passes
 * its venv's Python ({@code -Dclientbench.python}).
 */
@Command(name = "report", description = {"Renders analysis.ipynb into <run dir>/report.html (default: the newest run).",
        "With --compare A B: whether the runs agree, and both side by side, into B/compare-<A>.html.",
        "With --readme: also <run dir>/main.png and README.md's generated blocks, from that run;",
        "from an A/A upgrade run (./bench upgrade CLIENT V V), docs/reference/verdict.md's resolution block;",
        "with --readme --compare A B: B's report and blocks, and the verdict page's repeatability block of A and B."})
final class ReportCommand implements Callable<Integer>, Bench.Checked {

    @Parameters(arity = "0..1", paramLabel = "RUN_DIR", description = "a folder under results/")
    Path runDir;

    @Option(names = "--compare", arity = "2", paramLabel = "RUN_DIR", description = "two run folders: the earlier, then the later")
    List<Path> compare;

    @Option(names = "--readme", description = "also write <run dir>/main.png and README.md's generated blocks from the run (an A/A run: the resolution block; another upgrade run: docs/guide/upgrade.md's verdict; a run with layers and their engines: docs/reference/clients.md's layer table; with --compare A B: B's, and how A and B agree)")
    boolean readme;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this text")
    boolean help;

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
            Path newest = RunFolder.newest(Checkout.results());
            if (newest == null) {
                System.err.println("bench: no finished run under " + Checkout.results() + "; run ./bench first");
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
            String verdict = Analysis.decide(run);
            if (verdict == null || !Analysis.render(run, System.out)) {
                return 1; // why is said
            }
            boolean written = !readme
                    || Analysis.run(System.out, "readme", run.toAbsolutePath().toString(), Checkout.root().resolve("README.md").toString());
            System.out.print(verdict);
            System.out.println("bench: report " + run.resolve("report.html"));
            return written ? 0 : 1;
        }
        Path a = runs.get(0);
        Path b = runs.get(1);
        if (readme) {
            // B is the reference: its own report and README's blocks from it, then how A and B agree.
            String verdict = Analysis.decide(b);
            if (verdict == null || !Analysis.render(b, System.out) || !Analysis.run(System.out, "readme",
                    b.toAbsolutePath().toString(), Checkout.root().resolve("README.md").toString(), a.toAbsolutePath().toString())) {
                return 1;
            }
            System.out.print(verdict);
        }
        if (!Analysis.run(System.out, "compare", a.toAbsolutePath().toString(), b.toAbsolutePath().toString())) {
            return 1;
        }
        String name = "compare-" + a.toAbsolutePath().normalize().getFileName() + ".html";
        boolean ok = Analysis.render(runs, b, name, System.out);
        System.out.println(ok ? "bench: report " + b.resolve(name) : "bench: the comparison could not be rendered");
        return ok ? 0 : 1;
    }
}
