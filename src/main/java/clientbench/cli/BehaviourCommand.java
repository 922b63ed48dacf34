package clientbench.cli;

import clientbench.behaviour.BehaviourRun;
import clientbench.jvm.Jdk;
import clientbench.plan.Profile;
import clientbench.results.Checkout;
import clientbench.results.RunFolder;
import clientbench.report.Analysis;
import clientbench.run.ComparisonRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code ./bench behaviour}: each client through the behaviour cases alone ({@link BehaviourRun}), into a run folder of
 * its own; then the table, each cell a count or time and its mark, from {@code analysis/decide/behaviour.py}.
 */
@Command(name = "behaviour", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"How each client behaves when the server misbehaves, as teams ship it: stale connections,",
                "connections closed right after an answer, deadlines, what 1,000 timeouts leave, reuse with bodies",
                "left unread, default pool limits, slow hosts beside a fast one, large response heads, an HTTP/2",
                "stream limit, HTTP/2 GOAWAYs. Writes",
                "results/<yyyyMMdd-HHmmss>-<host>/behaviour.json (docs/reference/behaviour.md)."})
final class BehaviourCommand implements Callable<Integer>, Bench.Checked {

    @Option(names = "--clients", paramLabel = "A,B", description = "clients to run (default: all)")
    String clients;

    @Option(names = "--parallel", paramLabel = "N", description = "client JVMs at a time (default: ${DEFAULT-VALUE})")
    int parallel = ComparisonRun.BEHAVIOUR_JVMS;

    @Option(names = "--jdk", paramLabel = "PATH", description = "the JDK the client JVMs run on (default: the launcher's)")
    Path jdk;

    private List<String> names;
    private Jdk resolvedJdk;

    @Override
    public int check() throws IOException {
        try {
            names = clients == null ? Profile.allClients() : Profile.clients(clients);
            if (parallel < 1) {
                throw new IllegalArgumentException("--parallel must be 1 or more, was " + parallel);
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
        System.out.println("bench: behaviour of " + String.join(", ", names) + ", " + BehaviourRun.cases() + " cases each, "
                + parallel + " JVMs at a time, into " + run.dir());
        try {
            BehaviourRun.run(names, resolvedJdk, parallel, run.dir(), System.out);
        } catch (IOException | RuntimeException e) {
            run.markIncomplete("failed: " + e);
            System.err.println("bench: behaviour failed (" + e + "); what it wrote stays in " + run.dir());
            return 1;
        }
        run.finish();
        System.out.println("bench: results in " + run.finalDir());
        Path module = root.resolve("analysis").resolve("decide").resolve("behaviour.py");
        return Analysis.python(System.out, module, run.finalDir().toAbsolutePath().toString()) ? 0 : 1;
    }
}
