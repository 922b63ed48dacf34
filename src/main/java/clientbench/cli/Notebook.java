package clientbench.cli;

import clientbench.results.Checkout;
import clientbench.results.RunFolder;
import clientbench.report.Analysis;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code ./bench notebook [run dir]}: opens analysis.ipynb in JupyterLab on one run (default: the newest),
 * to explore it interactively; the notebook reads the run from {@code CLIENTBENCH_RUNS}. The launcher
 * installs JupyterLab into the venv the first time (requirements-notebook.lock).
 */
@Command(name = "notebook", description = "Opens analysis.ipynb in JupyterLab on a run (default: the newest); Ctrl-C stops it.")
final class Notebook implements Callable<Integer>, Bench.Checked {

    @Parameters(arity = "0..1", paramLabel = "RUN_DIR", description = "a folder under results/")
    Path runDir;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this text")
    boolean help;

    private final ReportCommand report = new ReportCommand();

    @Override
    public int check() throws Exception {
        report.runDir = runDir;
        return report.check();
    }

    @Override
    public Integer call() throws Exception {
        int checked = check();
        String python = checked == 0 ? Analysis.python() : null;
        if (python == null) {
            return checked != 0 ? checked : 1;
        }
        Path run = runDir != null ? runDir : RunFolder.newest(Checkout.results());
        List<String> cmd = new ArrayList<>(List.of(python, "-m", "jupyter", "lab",
                Checkout.root().resolve("analysis.ipynb").toAbsolutePath().toString()));
        // Jupyter refuses root without it; a container's only user often is root.
        boolean root = "root".equals(System.getProperty("user.name"));
        if (root) {
            cmd.add("--allow-root");
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(Checkout.root().toFile()).inheritIO();
        pb.environment().put("CLIENTBENCH_RUNS", run.toAbsolutePath().toString());
        System.out.println("bench: opening analysis.ipynb on " + run + (root ? " (as root: --allow-root)" : "")
                + "; Ctrl-C stops Jupyter");
        return pb.start().waitFor();
    }
}
