package clientbench.cli;

import clientbench.jvm.Jdk;
import clientbench.plan.Profile;
import clientbench.results.Checkout;
import clientbench.results.RunFolder;
import clientbench.report.Analysis;
import clientbench.startup.Footprint;
import clientbench.startup.StartupPlan;
import clientbench.startup.StartupRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code ./bench startup}: what each client costs before its first request. Cold starts in fresh JVMs, interleaved
 * ({@link StartupRun}), and each client's own dependencies ({@link Footprint}) into a run folder of their own; then
 * the table, net of {@code noop}, from {@code analysis/decide/startup.py}.
 */
@Command(name = "startup", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"What each client costs before its first request: a fresh JVM's time to its first response,",
                "classes, threads, heap and resident memory after it and after 10,000 more, and the client's own",
                "dependencies. Writes results/<yyyyMMdd-HHmmss>-<host>/ with startup.json and footprint.json."})
final class StartupCommand implements Callable<Integer>, Bench.Checked {

    @Option(names = "--clients", paramLabel = "A,B", description = "clients to start (default: all); noop, the harness alone, starts too")
    String clients;

    @Option(names = "--starts", paramLabel = "N", description = "JVM starts per client, with and without its class-data archive"
            + " (default: ${DEFAULT-VALUE}; a median's 95%% interval needs 6 or more)")
    int starts = StartupPlan.DEFAULT_STARTS;

    @Option(names = "--jdk", paramLabel = "PATH", description = "the JDK the probe JVMs run on (default: the launcher's)")
    Path jdk;

    private List<String> names;
    private Jdk resolvedJdk;

    @Override
    public int check() throws IOException {
        try {
            names = clients == null ? Profile.allClients() : Profile.clients(clients);
            if (starts < 1) {
                throw new IllegalArgumentException("--starts must be 1 or more, was " + starts);
            }
            resolvedJdk = jdk == null ? Jdk.current() : RunCommand.jdkAt(jdk);
        } catch (IllegalArgumentException e) {
            System.err.println("bench: " + e.getMessage());
            new CommandLine(this).usage(System.err);
            return 2;
        }
        return 0;
    }

    @Override
    public Integer call() throws Exception {
        int checked = check();
        if (checked != 0) {
            return checked;
        }
        Path root = Checkout.root();
        RunFolder run = RunFolder.create(root.resolve("results"));
        System.out.println("bench: startup of " + String.join(", ", names) + " and noop, " + starts + " starts each, into " + run.dir());
        try {
            StartupRun.run(StartupPlan.of(names, starts, resolvedJdk, root), run.dir(), System.out);
            Footprint.write(names, run.dir(), resolvedJdk, root, System.out);
        } catch (IOException | RuntimeException e) {
            run.markIncomplete("failed: " + e);
            System.err.println("bench: startup failed (" + e + "); what it wrote stays in " + run.dir());
            return 1;
        }
        run.finish();
        System.out.println("bench: results in " + run.finalDir());
        Path module = root.resolve("analysis").resolve("decide").resolve("startup.py");
        return Analysis.python(System.out, module, run.finalDir().toAbsolutePath().toString()) ? 0 : 1;
    }
}
