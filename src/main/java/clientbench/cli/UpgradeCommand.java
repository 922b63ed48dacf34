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
import clientbench.upgrade.ClientBuild;
import clientbench.upgrade.VersionJar;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
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

    @Parameters(index = "0", paramLabel = "CLIENT", description = "the client, e.g. apache, jetty, reactor (not jdk)")
    String client;

    @Parameters(index = "1", paramLabel = "OLD", description = "the version it has now, e.g. 5.4.4")
    String oldVersion;

    @Parameters(index = "2", paramLabel = "NEW", description = "the version to move to (the same as OLD: an A/A run, the resolution)")
    String newVersion;

    @Option(names = "--shapes", paramLabel = "A,B", description = "shapes of the profile to run (default: rate-4000,closed-x16; a profile"
            + " without them: all of its shapes)")
    String shapes;

    @Option(names = "--rounds", paramLabel = "N", description = "rounds of fresh JVMs, A B B A (default: " + DEFAULT_ROUNDS
            + "; at least 2); with --blocks, sets (default: " + DEFAULT_SETS + ")")
    Integer rounds;

    @Option(names = "--blocks", paramLabel = "W", description = "run each round as a duet of W blocks: a JVM of each"
            + " version and of noop alive at once, their windows in turn (default: rounds of fresh JVMs)")
    int blocks = DEFAULT_BLOCKS;

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

    @Parameters(index = "3..*", paramLabel = "JMH_ARGS", description = "after --: passed to JMH")
    List<String> jmhArgs = new ArrayList<>();

    private ClientBuild oldBuild;
    private ClientBuild newBuild;
    private Profile measured;
    private JmhArgs jmh;
    private Jdk forkJdk;

    @Override
    public int check() throws IOException {
        try {
            oldBuild = ClientBuild.of(client, oldVersion);
            newBuild = ClientBuild.of(client, newVersion);
            int n = rounds != null ? rounds : blocks > 0 ? DEFAULT_SETS : DEFAULT_ROUNDS;
            if (n < 2) {
                throw new IllegalArgumentException("--rounds must be 2 or more (a ratio's interval needs two rounds, or"
                        + " two sets: each is one pair of JVMs), was " + n);
            }
            if (blocks < 0) {
                throw new IllegalArgumentException("--blocks must be 1 or more for a duet (0: rounds), was " + blocks);
            }
            Profile source = Profile.named(profile);
            measured = profile(source, shapes != null ? List.of(shapes.split(",")) : defaultShapes(source), n, blocks);
            jmh = JmhArgs.parse(jmhArgs);
            forkJdk = jdk == null ? Jdk.current() : RunCommand.jdkAt(jdk);
        } catch (IllegalArgumentException | CommandLineOptionException e) {
            System.err.println("bench: " + e.getMessage()); // the line names the fix
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
        List<VersionJar.Built> built = new ArrayList<>();
        for (ClientBuild b : List.of(oldBuild, newBuild)) {
            System.out.println("bench: " + b.words() + ": its jar in " + root.relativize(VersionJar.folder(root, b).toAbsolutePath())
                    + " (built by Maven with its contract test when missing or older than the sources: about a minute)");
            try {
                VersionJar.Built v = VersionJar.of(b, root, Jdk.current(), VersionJar.maven(Jdk.current()));
                System.out.println("bench: " + b.words() + ": " + (v.cached() ? "cached" : "built") + "; the jar holds "
                        + b.artifact() + " " + v.version() + " and passed " + b.contractTest());
                built.add(v);
            } catch (VersionJar.Refused e) {
                System.err.println("bench: " + e.getMessage());
                System.err.println("bench: nothing was measured");
                return 1;
            }
        }
        if (buildOnly) {
            return 0;
        }
        Versions versions = Versions.of(built.get(0), built.get(1));
        RunPlan plan = new RunPlan(measured, versions.labels(), null, jmh, forkJdk);
        VersionArms arms = new VersionArms(plan, versions, profile, !noBehaviour, List.of(Bench.class.getName(), "step"));
        return new ComparisonRun(plan, System.out, arms, null).run();
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
