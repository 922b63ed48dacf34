package clientbench.cli;

import clientbench.api.AdapterConfig;
import clientbench.jvm.Jdk;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code ./bench [options] [-- JMH args]}: the comparison's command line. Checks every input before any
 * time is spent (see {@link #check()}), then hands the {@link RunPlan} to {@link ComparisonRun}.
 */
@Command(name = "bench", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Runs the comparison of every client and writes results/<yyyyMMdd-HHmmss>-<host>/.",
                "Anything after -- goes to JMH (e.g. -- -prof stack, -- -jvmArgs -XX:+UseZGC, -- -rf csv)."})
final class RunCommand implements Callable<Integer>, Bench.Checked {

    @Option(names = "--profile", paramLabel = "NAME", description = "quick (default, ~10 min), standard (~1 h, 3 forks), full")
    String profile = "quick";

    @Option(names = "--clients", paramLabel = "A,B", description = "clients to run (default: all)")
    String clients;

    @Option(names = "--target", paramLabel = "URL", description = "an already running stub or other server instead of a stub per trial")
    String target;

    @Option(names = "--jdk", paramLabel = "PATH", description = "the JDK the client JVMs run on (default: the launcher's)")
    Path jdk;

    @Parameters(paramLabel = "JMH_ARGS", description = "after --: passed to JMH")
    List<String> jmhArgs = new ArrayList<>();

    private RunPlan plan;

    @Override
    public int check() throws IOException {
        try {
            plan = new RunPlan(Profile.named(profile), clients == null ? Profile.allClients() : Profile.clients(clients),
                    target, JmhArgs.parse(jmhArgs), jdk == null ? Jdk.current() : jdkAt(jdk));
        } catch (IllegalArgumentException | CommandLineOptionException e) {
            System.err.println("bench: " + e.getMessage());
            new CommandLine(this).usage(System.err);
            return 2;
        }
        if (target != null) {
            String problem = unreachable(target);
            if (problem != null) {
                System.err.println("bench: " + problem);
                return 1;
            }
        }
        return 0;
    }

    @Override
    public Integer call() throws Exception {
        int checked = check();
        return checked != 0 ? checked : new ComparisonRun(plan, System.out).run();
    }

    private static Jdk jdkAt(Path home) throws IOException {
        try {
            return Jdk.at(home);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--jdk " + e.getMessage());
        }
    }

    /** Null when the target answers a TCP connect within 2 s; else why not. */
    static String unreachable(String url) {
        URI uri;
        try {
            uri = AdapterConfig.parseTarget(url);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        int port = uri.getPort() > 0 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(uri.getHost(), port), 2_000);
            return null;
        } catch (IOException e) {
            return "target " + url + " is unreachable (" + e.getMessage() + "); start it first, e.g. ./bench stub --port " + port;
        }
    }
}
