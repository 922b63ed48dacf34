package clientbench.plan;

import clientbench.adapters.Adapters;
import clientbench.api.Protocol;
import clientbench.harness.LoadSpec;
import clientbench.harness.RequestSpec;
import clientbench.harness.TrialSpec;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Defaults;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The JMH arguments after {@code --}, as JMH's parser reads them, for every (shape, client) run, except that
 * {@code -jvmArgs} is appended to the forks' own flags (the run options' forkJvmArgs) and {@code -rf}/{@code -rff}
 * name one file for the whole run, written at the end, rather than one per run that the next overwrites.
 */
public final class JmhArgs {

    /** -rf FORMAT, -rff FILE, and their -rf=FORMAT forms: taken out of what every run gets. */
    private static final Pattern RESULT_OPTION = Pattern.compile("^--?rff?(=.*)?$");

    private final List<String> args;
    private final CommandLineOptions given;
    private final CommandLineOptions perRun;

    private JmhArgs(List<String> args, CommandLineOptions given, CommandLineOptions perRun) {
        this.args = List.copyOf(args);
        this.given = given;
        this.perRun = perRun;
    }

    public static JmhArgs parse(List<String> args) throws CommandLineOptionException {
        CommandLineOptions given = new CommandLineOptions(args.toArray(String[]::new));
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (RESULT_OPTION.matcher(a).matches()) {
                i += a.contains("=") ? 0 : 1; // its value too
            } else {
                rest.add(a);
            }
        }
        CommandLineOptions perRun = new CommandLineOptions(rest.toArray(String[]::new));
        if (perRun.getResult().hasValue() || perRun.getResultFormat().hasValue()) {
            throw new IllegalArgumentException("give JMH's result options as -rf FORMAT and -rff FILE");
        }
        JmhArgs jmh = new JmhArgs(args, given, perRun);
        jmh.checkParams();
        return jmh;
    }

    /** As given, for env.json. */
    public List<String> args() {
        return args;
    }

    /** The parent of every run's options: everything given but the result file. */
    public CommandLineOptions perRun() {
        return perRun;
    }

    /** {@code -jvmArgs}, to append to the forks' own flags (JMH would otherwise replace them). */
    public List<String> jvmArgs() {
        return given.getJvmArgs().hasValue() ? List.copyOf(given.getJvmArgs().get()) : List.of();
    }

    /** The format {@code -rf} asked for, if {@code -rf} or {@code -rff} was given. */
    public ResultFormatType resultFormat() {
        return given.getResultFormat().orElse(Defaults.RESULT_FORMAT);
    }

    /**
     * Where the whole run's results go in {@link #resultFormat()}, or null when neither {@code -rf} nor
     * {@code -rff} was given: {@code -rff}'s file as JMH would write it, else {@code jmh-result.<format>} in
     * the run's folder.
     */
    public Path resultFile(Path runDir) {
        if (given.getResult().hasValue()) {
            return Path.of(given.getResult().get());
        }
        if (given.getResultFormat().hasValue()) {
            return runDir.resolve(Defaults.RESULT_FILE_PREFIX + "." + resultFormat().toString().toLowerCase(Locale.ROOT));
        }
        return null;
    }

    /**
     * Each JMH parameter given here is checked by the record that will hold it in the fork (TrialSpec,
     * LoadSpec: the rules live there), with valid values for everything else, before the run starts.
     */
    private void checkParams() {
        for (String v : values("rate")) {
            LoadSpec.open(TrialSpec.number("rate", v), 1, LoadSpec.Backpressure.PARK, Duration.ZERO);
        }
        for (String v : values("concurrency")) {
            LoadSpec.closed(TrialSpec.integer("concurrency", v), Duration.ZERO);
        }
        values("backpressure").forEach(LoadSpec.Backpressure::parse);
        for (String v : values("connections")) {
            trial("", "http1", v, "0", "5", "0");
        }
        for (String v : values("delayMs")) {
            trial("", "http1", "1", v, "5", "0");
        }
        for (String v : values("bytes")) {
            trial("", "http1", "1", "0", v, "0");
        }
        for (String v : values("requestBytes")) {
            trial("", "http1", "1", "0", "5", v);
        }
        values("protocol").forEach(Protocol::parse);
        for (String v : values("target")) {
            trial(v, "http1", "1", "0", "5", "0");
        }
        values("request").forEach(RequestSpec::param);
        for (String v : values("timeoutMs")) {
            trial("", "http1", "1", "0", "5", "0").withLongLived(Duration.ofMillis(TrialSpec.integer("timeoutMs", v)));
        }
        // The comparison's clients are the registry's (noop, the harness alone, is HarnessSelfBenchmark's).
        values("client").forEach(Profile::clients);
    }

    private static TrialSpec trial(String target, String protocol, String connections, String delayMs, String bytes,
                                   String requestBytes) {
        return TrialSpec.parse(Adapters.NOOP, target, protocol, connections, delayMs, bytes, requestBytes,
                LoadSpec.closed(1, Duration.ZERO), null);
    }

    private Collection<String> values(String param) {
        return given.getParameter(param).hasValue() ? given.getParameter(param).get() : List.of();
    }

    /** Whether JMH's parameter {@code name} was given here (it then wins over the shape's). */
    public boolean hasParam(String name) {
        return given.getParameter(name).hasValue();
    }
}
