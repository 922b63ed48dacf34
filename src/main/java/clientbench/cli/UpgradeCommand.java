package clientbench.cli;

import clientbench.jvm.Jdk;
import clientbench.plan.JmhArgs;
import clientbench.plan.Profile;
import clientbench.plan.RunPlan;
import clientbench.plan.Shape;
import clientbench.results.Checkout;
import clientbench.run.ComparisonRun;
import clientbench.run.VersionArms;
import clientbench.run.Versions;
import clientbench.report.Analysis;
import clientbench.upgrade.Bump;
import clientbench.upgrade.ClientBuild;
import clientbench.upgrade.DependencyDiff;
import clientbench.upgrade.VersionJar;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
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
 * {@code ./bench upgrade CLIENT OLD NEW}: builds a jar per version ({@link VersionJar}: its contract test passed, or
 * one line why not), runs the behaviour cases on each, measures both in one run, interleaved with noop ({@link
 * VersionArms}), and ends with the behaviour cells that changed and each figure's ratio new/old, interval and verdict.
 * docs/guide/upgrade.md says how to read it.
 */
@Command(name = "upgrade", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Whether to move a client from version OLD to NEW. Builds a jar per version into",
                "target/upgrade/<client>-<version>/ (the adapter compiled and its contract test run against it),",
                "runs the behaviour cases on each version (the cells whose mark changed: fixed, broken), measures",
                "both in one run, interleaved (old, noop, new; new, noop, old; ...), and gives per figure the ratio",
                "NEW/OLD with its 95%% interval: better, worse, or no difference detected.",
                "Writes results/<yyyyMMdd-HHmmss>-<host>/; anything after -- goes to JMH. See docs/guide/upgrade.md."})
final class UpgradeCommand implements Callable<Integer>, Bench.Checked {

    /** The default: the figures that repeat within a few percent, settled as the standard profile settles them. */
    static final String DEFAULT_PROFILE = "standard";
    static final List<String> DEFAULT_SHAPES = List.of(Profile.COMMON_SHAPE, "closed-x16");
    /**
     * With {@code --blocks W}, each round is a duet: one JVM of each version and of noop alive at once, their measured
     * windows in turn, block after block. A set is judged as one pair (JVMs of one version differ by more than their
     * windows), and a set costs more than a round (three warm-ups in turn): rounds stay the default.
     */
    static final int DEFAULT_BLOCKS = 0;
    static final int DEFAULT_SETS = 6;
    /**
     * Rounds of fresh JVMs: even, so as many rounds run the old version first as the new (Schedule.alternating); the
     * run prints what they will take before it starts.
     */
    static final int DEFAULT_ROUNDS = 8;
    /**
     * A pull request's check (--from-diff): the design of the committed A/A run, whose resolution the verdict page
     * shows, so that an A/A run at the same design is the foresight's reference (analysis: foresee).
     */
    static final String DIFF_SHAPE = Profile.COMMON_SHAPE;
    static final int DIFF_SETS = 6;
    static final int DIFF_BLOCKS = 9;
    /** Where GitHub Actions reads a step's Markdown summary from. */
    static final String GITHUB_SUMMARY = "GITHUB_STEP_SUMMARY";

    @Parameters(paramLabel = "CLIENT OLD NEW", description = {"the client (e.g. apache, jetty, reactor; not jdk), the version it"
            + " has now and the one to move to (OLD = NEW: an A/A run, the resolution); not with --from-diff",
            "after --: passed to JMH"})
    List<String> positional = new ArrayList<>();

    @Option(names = "--from-diff", arity = "2", paramLabel = "REPO BASE..HEAD", description = "the bumps between two"
            + " revisions of the team's git repository (its poms and Gradle version catalogs): each measured client whose"
            + " version moved, and a Netty bump on every default client that runs on Netty; default design: "
            + DIFF_SHAPE + ", " + DIFF_SETS + " sets of " + DIFF_BLOCKS + " blocks")
    List<String> fromDiff;

    @Option(names = "--gate", paramLabel = "FILE", description = "thresholds (TOML, examples/gate.toml): exit 1 when a"
            + " figure worsened beyond one at the verdict's confidence, 3 when the run could not resolve one (or a"
            + " version could not be built or measured), else 0")
    Path gate;

    @Option(names = "--summary", paramLabel = "FILE", description = "the Markdown summary (default: $GITHUB_STEP_SUMMARY"
            + " when set, else upgrade.md in the last run's folder)")
    Path summary;

    @Option(names = "--plant-cpu-us", hidden = true, paramLabel = "US", description = "the new version's forks spin this"
            + " CPU per request (PlantedCost): a known regression, to check the gate")
    double plantCpuMicros;

    @Option(names = "--shapes", paramLabel = "A,B", description = "shapes of the profile to run (default: rate-4000,closed-x16; with"
            + " --from-diff rate-4000; a profile without them: all of its shapes)")
    String shapes;

    @Option(names = "--rounds", paramLabel = "N", description = "rounds of fresh JVMs, A B B A (default: " + DEFAULT_ROUNDS
            + "; at least 2); with --blocks, sets (default: " + DEFAULT_SETS + ")")
    Integer rounds;

    @Option(names = "--blocks", paramLabel = "W", description = "run each round as a duet of W blocks: a JVM of each"
            + " version and of noop alive at once, their windows in turn (default: rounds of fresh JVMs; with"
            + " --from-diff " + DIFF_BLOCKS + "; 0: rounds)")
    Integer blocks;

    @Option(names = "--profile", paramLabel = "NAME", description = "whose shapes and timings (default: standard; smoke: seconds,"
            + " the pipeline only)")
    String profile = DEFAULT_PROFILE;

    @Option(names = "--build-only", description = "build both jars and run their contract tests; measure nothing")
    boolean buildOnly;

    @Option(names = "--no-behaviour", description = "skip the behaviour cases (each version once on its jar, first;"
            + " about a minute), so compare costs only")
    boolean noBehaviour;

    @Option(names = "--jdk", paramLabel = "PATH", description = "the JDK the client JVMs run on (default: the launcher's)")
    Path jdk;

    private final List<ClientBuild[]> pairs = new ArrayList<>();
    private final List<String> notMeasured = new ArrayList<>();
    /** Lines of the diff that may hide a measured bump: a check cannot pass them. */
    private final List<String> unresolved = new ArrayList<>();
    private Profile measured;
    private JmhArgs jmh;
    private Jdk forkJdk;

    @Override
    public int check() throws IOException, InterruptedException {
        try {
            List<String> jmhArgs = pairsToMeasure();
            boolean diff = fromDiff != null;
            int w = blocks != null ? blocks : diff ? DIFF_BLOCKS : DEFAULT_BLOCKS;
            int n = rounds != null ? rounds : diff && w > 0 ? DIFF_SETS : w > 0 ? DEFAULT_SETS : DEFAULT_ROUNDS;
            if (n < 2) {
                throw new IllegalArgumentException("--rounds must be 2 or more (a ratio's interval needs two rounds, or"
                        + " two sets: each is one pair of JVMs), was " + n);
            }
            if (w < 0) {
                throw new IllegalArgumentException("--blocks must be 1 or more for a duet (0: rounds), was " + w);
            }
            if (plantCpuMicros < 0) {
                throw new IllegalArgumentException("--plant-cpu-us must be 0 or more, was " + plantCpuMicros);
            }
            if (gate != null && !Files.isRegularFile(gate)) {
                throw new IllegalArgumentException("--gate " + gate + ": no such file (examples/gate.toml is one to copy)");
            }
            Profile source = Profile.named(profile);
            List<String> names = shapes != null ? List.of(shapes.split(","))
                    : diff && hasShape(source, DIFF_SHAPE) ? List.of(DIFF_SHAPE) : defaultShapes(source);
            measured = profile(source, names, n, w);
            jmh = JmhArgs.parse(jmhArgs);
            forkJdk = jdk == null ? Jdk.current() : RunCommand.jdkAt(jdk);
        } catch (IllegalArgumentException | CommandLineOptionException e) {
            System.err.println("bench: " + e.getMessage()); // the line names the fix
            return 2;
        } catch (IOException e) {
            System.err.println("bench: cannot read the diff: " + e.getMessage());
            return 2;
        }
        return 0;
    }

    /** After {@link #check}: each pair of builds to measure, old then new. */
    List<ClientBuild[]> pairs() {
        return pairs;
    }

    /** After {@link #check}: the profile measured. */
    Profile measured() {
        return measured;
    }

    /** The pairs of builds to measure, from CLIENT OLD NEW or from the diff; returns the JMH arguments left. */
    private List<String> pairsToMeasure() throws IOException, InterruptedException {
        pairs.clear();
        notMeasured.clear();
        unresolved.clear();
        if (fromDiff == null) {
            if (positional.size() < 3) {
                throw new IllegalArgumentException("give CLIENT OLD NEW (e.g. ./bench upgrade jetty 12.1.3 12.1.14), or"
                        + " --from-diff REPO BASE..HEAD");
            }
            pairs.add(new ClientBuild[]{ClientBuild.of(positional.get(0), positional.get(1)),
                    ClientBuild.of(positional.get(0), positional.get(2))});
            return positional.subList(3, positional.size());
        }
        if (!positional.isEmpty() && !positional.get(0).startsWith("-")) {
            throw new IllegalArgumentException("with --from-diff the clients and versions come from the diff; '"
                    + positional.get(0) + "' is not a JMH argument (give those after --)");
        }
        String[] range = DependencyDiff.range(fromDiff.get(1));
        DependencyDiff.Found found = DependencyDiff.between(Path.of(fromDiff.get(0)), range[0], range[1]);
        for (Bump bump : found.measured()) {
            pairs.addAll(bump.builds());
        }
        notMeasured.addAll(found.notMeasured());
        unresolved.addAll(found.unresolved());
        return positional;
    }

    @Override
    public Integer call() throws Exception {
        int checked = check();
        if (checked != 0) {
            return checked;
        }
        notMeasured.forEach(line -> System.out.println("bench: not measured: " + line));
        boolean check = gate != null || fromDiff != null;
        // A check says of what it could not measure (a bump unread, a version not built, a run without a result)
        // that it could not resolve it: 3, never 1, which is a regression.
        boolean unmeasured = !unresolved.isEmpty();
        if (pairs.isEmpty()) {
            System.out.println(unmeasured ? "bench: nothing measured, and the diff may move a measured client (the lines"
                    + " above): could not resolve (exit 3)" : "bench: the diff moves no client this suite measures:"
                    + " nothing to measure (exit 0)");
            return unmeasured ? 3 : 0;
        }
        if (gate != null && !Analysis.foresee(gate, measured.shapes().get(0).rounds(),
                measured.shapes().stream().map(Shape::name).toList(), System.out)) {
            return 2; // the thresholds file, said in one line
        }
        Path root = Checkout.root();
        List<Path> runs = new ArrayList<>();
        int reported = 0; // 1 when a run's report could not be drawn
        for (ClientBuild[] pair : pairs) {
            String words = pair[0].words() + " -> " + pair[1].version();
            try {
                List<VersionJar.Built> built = build(root, pair);
                if (built == null) {
                    unmeasured = true;
                    continue;
                }
                if (buildOnly) {
                    continue;
                }
                Versions versions = Versions.of(built.get(0), built.get(1)).planted(Math.round(plantCpuMicros * 1000));
                RunPlan plan = new RunPlan(measured, versions.labels(), null, jmh, forkJdk);
                VersionArms arms = new VersionArms(plan, versions, profile, !noBehaviour, List.of(Bench.class.getName(), "step"));
                ComparisonRun run = new ComparisonRun(plan, System.out, arms, null);
                int status = run.run();
                if (run.finishedDir() == null) {
                    if (!check) {
                        return status; // nothing finished: the run said why
                    }
                    System.err.println("bench: " + words + ": no result; could not resolve it");
                    unmeasured = true;
                    continue;
                }
                runs.add(run.finishedDir());
                reported = Math.max(reported, status);
            } catch (IOException e) {
                if (!check) {
                    throw e;
                }
                System.err.println("bench: " + words + ": not measured: " + e.getMessage());
                unmeasured = true;
            }
        }
        int unbuilt = !unmeasured ? 0 : check ? 3 : 1;
        if (buildOnly || runs.isEmpty() || !check && summary == null && System.getenv(GITHUB_SUMMARY) == null) {
            return check || reported == 0 ? unbuilt : reported;
        }
        Path md = summary != null ? summary : System.getenv(GITHUB_SUMMARY) != null ? Path.of(System.getenv(GITHUB_SUMMARY))
                : runs.get(runs.size() - 1).resolve("upgrade.md");
        int status = Analysis.gate(gate, md, runs, System.out);
        if (!check) {
            return Math.max(Math.max(reported, unbuilt), status == 0 ? 0 : 1); // the summary alone: the run's own status
        }
        return status == 0 ? unbuilt : status;
    }

    /** Both jars of a pair, or null when one was refused (said in one line). */
    private static List<VersionJar.Built> build(Path root, ClientBuild[] pair) throws IOException, InterruptedException {
        List<VersionJar.Built> built = new ArrayList<>();
        for (ClientBuild b : pair) {
            System.out.println("bench: " + b.words() + ": its jar in " + root.relativize(VersionJar.folder(root, b).toAbsolutePath())
                    + " (built by Maven with its contract test when missing or older than the sources: about a minute)");
            try {
                VersionJar.Built v = VersionJar.of(b, root, Jdk.current(), VersionJar.maven(Jdk.current()));
                System.out.println("bench: " + b.words() + ": " + (v.cached() ? "cached" : "built") + "; the jar holds "
                        + b.artifact() + " " + v.version() + " and passed " + b.contractTest());
                built.add(v);
            } catch (VersionJar.Refused e) {
                System.err.println("bench: " + e.getMessage());
                System.err.println("bench: nothing was measured for " + pair[0].words() + " -> " + pair[1].version());
                return null;
            }
        }
        return built;
    }

    private static boolean hasShape(Profile source, String name) {
        return source.shapes().stream().anyMatch(s -> s.name().equals(name));
    }

    /** rate-4000 and closed-x16 where {@code source} has them, else all of its shapes (smoke's, say). */
    static List<String> defaultShapes(Profile source) {
        List<String> names = source.shapes().stream().map(Shape::name).toList();
        List<String> common = DEFAULT_SHAPES.stream().filter(names::contains).toList();
        return common.isEmpty() ? names : common;
    }

    /**
     * The upgrade's own profile: {@code names} of {@code source}'s shapes, each in {@code rounds} rounds, each a set of
     * {@code blocks} blocks (0: forks alone).
     */
    static Profile profile(Profile source, List<String> names, int rounds, int blocks) {
        List<Shape> chosen = new ArrayList<>();
        for (String n : names) {
            String name = n.trim();
            Shape s = source.shapes().stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow(() ->
                    new IllegalArgumentException("no shape '" + name + "' in profile " + source.name() + "; valid: "
                            + String.join(", ", source.shapes().stream().map(Shape::name).toList())));
            chosen.add(s.inRounds(rounds, s.canInterleave() ? blocks : 0));
        }
        String purpose = "an upgrade: two versions of one client, " + (blocks > 0 ? "window by window in sets of "
                + blocks + " blocks" : "interleaved A B B A") + ", on the " + source.name() + " profile's shapes"
                + (source.purpose().contains("not ") ? " (" + source.name() + ": not for decisions)" : "");
        return new Profile("upgrade", purpose, chosen, null);
    }
}
