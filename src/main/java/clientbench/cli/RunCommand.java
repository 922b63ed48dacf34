package clientbench.cli;

import clientbench.api.AdapterConfig;
import clientbench.harness.RequestSpec;
import clientbench.jvm.Jdk;
import clientbench.plan.JmhArgs;
import clientbench.plan.Profile;
import clientbench.plan.RunPlan;
import clientbench.plan.TimeFit;
import clientbench.plan.UntilDecided;
import clientbench.run.ClientArms;
import clientbench.run.ComparisonRun;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code ./bench [options] [-- JMH args]}: the comparison's command line. Checks every input before any
 * time is spent (see {@link #check()}), then hands the {@link RunPlan} to {@link ComparisonRun}.
 */
@Command(name = "bench", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Runs the comparison of every client and writes results/<yyyyMMdd-HHmmss>-<host>/.",
                "Anything after -- goes to JMH (e.g. -- -prof stack, -- -jvmArgs -XX:+UseZGC, -- -rf csv)."})
final class RunCommand implements Callable<Integer>, Bench.Checked {

    @Option(names = "--profile", paramLabel = "NAME", description = "quick (default, ~10 min), standard (~1 h, for decisions), full")
    String profile = "quick";

    @Option(names = "--clients", paramLabel = "A,B", description = "clients to run (default: the twelve); spring: Spring's clients, their engines and Armeria")
    String clients;

    @Option(names = "--until-decided", paramLabel = "N", description = {"the common rate in up to N rounds: after each from"
            + " the second, stop once every pair of clients is told apart or alike within its margin (thresholds.json) on CPU"
            + " per request and p50"})
    Integer untilDecided;

    @Option(names = "--target", paramLabel = "URL", description = {"an already running server (yours, or a stub) instead of a stub per trial;",
            "its path and query are what each request asks for (none: the stub's query)"})
    String target;

    @Option(names = "--method", paramLabel = "M", description = "with --target: the HTTP method (default GET, or POST with --body-file)")
    String method;

    @Option(names = "--header", paramLabel = "'NAME: VALUE'", description = "with --target: a header to send, e.g. 'Authorization: Bearer x' (repeatable)")
    List<String> headers = new ArrayList<>();

    @Option(names = "--body-file", paramLabel = "FILE", description = "with --target: the request body (its type from a Content-Type --header)")
    Path bodyFile;

    @Option(names = "--expect-status", paramLabel = "N", description = "with --target: ok only with this status (default: any 2xx)")
    String expectStatus;

    @Option(names = "--insecure", description = "with an https --target: do not verify its certificate and host name")
    boolean insecure;

    @Option(names = "--jdk", paramLabel = "PATH", description = "the JDK the client JVMs run on (default: the launcher's)")
    Path jdk;

    @Parameters(paramLabel = "JMH_ARGS", description = "after --: passed to JMH")
    List<String> jmhArgs = new ArrayList<>();

    private RunPlan plan;
    private UntilDecided until;
    private TimeFit fit;

    @Override
    public int check() throws IOException {
        RequestSpec request;
        try {
            request = request();
            List<String> names = clients == null ? Profile.allClients() : Profile.clients(clients);
            Profile p = Profile.named(profile).fittedTo(names.size());
            until = untilDecided == null ? null : UntilDecided.of(p, untilDecided);
            JmhArgs jmh = JmhArgs.parse(jmhArgs);
            Jdk forks = jdk == null ? Jdk.current() : jdkAt(jdk);
            // cut, where the estimate is past the limit, before the run says what it runs
            fit = TimeFit.of(until == null ? p : until.applyTo(p), q -> estimatedSeconds(new RunPlan(q, names, target,
                    jmh, forks, request, 0)), ComparisonRun.limitLeft(p.timeLimit(), Instant.now()));
            plan = new RunPlan(fit.profile(), names, target, jmh, forks, request);
        } catch (RequestOptionException e) {
            System.err.println("bench: " + e.getMessage());
            return e.exitCode;
        } catch (IllegalArgumentException | CommandLineOptionException e) {
            System.err.println("bench: " + e.getMessage());
            new CommandLine(this).usage(System.err);
            return 2;
        }
        if (target != null) {
            String problem = TargetChecks.unreachable(target);
            if (problem == null && !request.insecure()) {
                problem = TargetChecks.unverified(target);
            }
            if (problem != null) {
                System.err.println("bench: " + problem);
                return 1;
            }
        }
        return 0;
    }

    private static long estimatedSeconds(RunPlan plan) {
        return ComparisonRun.estimatedSeconds(plan, new ClientArms(plan));
    }

    /** What {@link #check()} cut from the profile to fit its limit; null before. */
    TimeFit fit() {
        return fit;
    }

    /** The plan {@link #check()} made; null before, or when the input was bad. */
    RunPlan plan() {
        return plan;
    }

    @Override
    public Integer call() throws Exception {
        int checked = check();
        return checked != 0 ? checked : new ComparisonRun(plan, System.out, new ClientArms(plan), until, fit).run();
    }

    /**
     * The request options as a {@link RequestSpec} (the URL's path and query included), or null without
     * --target. Each problem is one line: 2 for a malformed value, 1 for a body file that cannot be read.
     */
    private RequestSpec request() {
        if (target == null) {
            Map<String, Boolean> options = new LinkedHashMap<>();
            options.put("--method", method != null);
            options.put("--header", !headers.isEmpty());
            options.put("--body-file", bodyFile != null);
            options.put("--expect-status", expectStatus != null);
            options.put("--insecure", insecure);
            List<String> given = options.keySet().stream().filter(options::get).toList();
            if (!given.isEmpty()) {
                throw new RequestOptionException(String.join(", ", given) + " need --target URL: the stub's request is fixed", 2);
            }
            return null;
        }
        URI uri;
        try {
            uri = AdapterConfig.parseTarget(target);
        } catch (IllegalArgumentException e) {
            throw new RequestOptionException(e.getMessage(), 1);
        }
        if (bodyFile != null && !(Files.isRegularFile(bodyFile) && Files.isReadable(bodyFile))) {
            throw new RequestOptionException("--body-file " + bodyFile + ": "
                    + (Files.exists(bodyFile) ? "not a readable file" : "no such file"), 1);
        }
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? null
                : uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        if (path == null && uri.getRawQuery() != null) {
            path = "/?" + uri.getRawQuery();
        }
        try {
            return RequestSpec.of(method, path, headers, bodyFile, expectStatus, insecure);
        } catch (IllegalArgumentException e) {
            throw new RequestOptionException(e.getMessage(), 2);
        }
    }

    /** A request option that is wrong: its line, and the exit code (no usage text: the line names the fix). */
    private static final class RequestOptionException extends IllegalArgumentException {
        final int exitCode;

        RequestOptionException(String message, int exitCode) {
            super(message);
            this.exitCode = exitCode;
        }
    }

    /** The JDK of {@code --jdk PATH}; its problem names the option. */
    static Jdk jdkAt(Path home) throws IOException {
        try {
            return Jdk.at(home);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--jdk " + e.getMessage());
        }
    }
}
