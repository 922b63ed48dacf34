package clientbench.plan;

import clientbench.adapters.Adapters;
import clientbench.harness.TrialSpec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A named set of shapes for {@code ./bench --profile NAME} (docs/reference/profiles.md: what each measures, and why).
 * Fixed-rate and closed shapes also run {@code noop} each round, the baseline subtracted from each client's costs.
 * {@code timeLimit}: time promised for the default clients on 2 cores; {@code startup}: cold starts run first; null: none.
 */
public record Profile(String name, String purpose, List<Shape> shapes, Duration timeLimit, Startup startup) {

    /**
     * The cold starts a profile runs before its shapes: {@code starts} rounds of every client and noop in a fresh JVM,
     * the first {@code archiveStarts} also with its class-data archive, the first {@code requestStarts} sending 10,000
     * requests after the first; {@code footprint}: each client's own dependencies resolved from Maven.
     */
    public record Startup(int starts, int archiveStarts, int requestStarts, boolean footprint) {

        /** These starts with {@code n} cold starts a client, the rest as they are. */
        public Startup keeping(int n) {
            return new Startup(n, archiveStarts, requestStarts, footprint);
        }

        /** For the time-left estimate: 1 s a JVM start, 3 s more for one that sends requests (medians 0.8 and 2.7 s). */
        public long estimatedSeconds(int jvms) {
            return Math.round(jvms * (1.0 * (starts + archiveStarts) + 3.0 * requestStarts));
        }
    }

    public Profile(String name, String purpose, List<Shape> shapes, Duration timeLimit) {
        this(name, purpose, shapes, timeLimit, null);
    }

    /** The common rate: below every client's knee on 2 cores, where cost and latency compare like with like. */
    public static final int COMMON_RATE = 4_000;
    /** The common rate's shape, as the verdict, an upgrade and --until-decided name it. */
    public static final String COMMON_SHAPE = "rate-" + COMMON_RATE;

    /** A first look's starts: none with 10,000 requests, since one such start a client gives figures without letters. */
    private static final Startup FIRST_LOOK_STARTS = new Startup(2, 0, 0, true);

    public static Profile named(String name) {
        return switch (name) {
            case "quick" -> new Profile("quick", "a first look, not for decisions: two rounds at the common rate, no"
                    + " closed loop, knee search or memory after 10,000 requests", quickShapes(), Duration.ofMinutes(10),
                    FIRST_LOOK_STARTS);
            case "interleaved" -> new Profile("interleaved", "a first look, not for decisions: quick's common rate in two"
                    + " interleaved sets, to try the schedule",
                    interleavedShapes(), Duration.ofMinutes(13), FIRST_LOOK_STARTS);
            case "standard" -> new Profile("standard", "for decisions: three rounds at the common rate and of the closed"
                    + " loop, two of the knee search", standardShapes(), Duration.ofMinutes(60), new Startup(10, 2, 2, true));
            case "full" -> new Profile("full", "standard plus HTTP/2, TLS, payloads and long-lived concurrency",
                    fullShapes(), null, new Startup(10, 10, 10, true));
            // Not in names(): the analysis tests' fixture (analysis/fixtures/README.md), not a comparison.
            case "fixture" -> new Profile("fixture", "the analysis tests' fixture: every kind of result, not for decisions",
                    fixtureShapes(), null, new Startup(3, 1, 1, true));
            case "smoke" -> new Profile("smoke", "that the pipeline works end to end, seconds per client: not a measurement",
                    smokeShapes(), null, new Startup(1, 0, 0, false));
            default -> throw new IllegalArgumentException("unknown profile '" + name + "'; valid: " + String.join(", ", names()));
        };
    }

    /**
     * What a profile with a time limit cuts when a run holds more clients than the default set
     * (docs/reference/profiles.md): the knee search, the 1 s answers and the faults, the least ranking per minute of
     * run; then the closed loop's last round and half the cold starts: one more JVM costs every shape a fork a round.
     */
    private static final Set<String> LEFT_OUT_BEYOND_THE_DEFAULT_SET = Set.of("capacity-http1", "delay1s-1000",
            "faults-1000");
    private static final Set<String> ONE_ROUND_FEWER_BEYOND_THE_DEFAULT_SET = Set.of("closed-x16");
    /** Cold starts a cut profile keeps of its many (beyond the default set, or fitted to its time): enough for a
     *  median and its spread. */
    static final int COLD_STARTS_KEPT = 5;

    /** This profile for a run of {@code clients} clients: its time limit is for the default set, so beyond it less. */
    public Profile fittedTo(int clients) {
        int budgeted = Adapters.names().size();
        if (timeLimit == null || clients <= budgeted) {
            return this;
        }
        List<String> cuts = new ArrayList<>();
        List<String> left = shapes.stream().map(Shape::name).filter(LEFT_OUT_BEYOND_THE_DEFAULT_SET::contains).toList();
        if (!left.isEmpty()) {
            cuts.add("leaves out " + String.join(", ", left));
        }
        List<Shape> kept = new ArrayList<>();
        for (Shape s : shapes) {
            if (left.contains(s.name())) {
                continue;
            }
            boolean fewer = ONE_ROUND_FEWER_BEYOND_THE_DEFAULT_SET.contains(s.name()) && s.rounds() > 2;
            kept.add(fewer ? s.inRounds(s.rounds() - 1, s.blocks()) : s);
            if (fewer) {
                cuts.add("runs " + s.name() + " in " + (s.rounds() - 1) + " rounds, not " + s.rounds());
            }
        }
        Startup starts = startup;
        if (startup != null && startup.starts() > COLD_STARTS_KEPT) {
            starts = startup.keeping(COLD_STARTS_KEPT);
            cuts.add("starts each client cold " + COLD_STARTS_KEPT + " times, not " + startup.starts());
        }
        if (cuts.isEmpty()) {
            return this;
        }
        return new Profile(name, purpose + "; this run " + String.join(", ", cuts) + ": its " + TimeLeft.human(timeLimit)
                + " holds " + budgeted + " clients with every shape, not " + clients, kept, timeLimit, starts);
    }

    /** The profiles that run every client through the behaviour cases: counts, so a quick run's answer is final. */
    private static final Set<String> BEHAVIOUR = Set.of("quick", "standard", "full", "interleaved");

    /** Whether the profile runs the behaviour cases (clientbench.behaviour) after the cold starts. */
    public boolean behaviour() {
        return BEHAVIOUR.contains(name);
    }

    public static List<String> names() {
        return List.of("quick", "standard", "full", "smoke", "interleaved");
    }

    /** Every client of the comparison, in the registry's order. */
    public static List<String> allClients() {
        return Adapters.names();
    }

    /**
     * Parses {@code a,b}: any client, opt-in ones too, and a family ({@code spring}: every Spring client, the bare
     * clients it runs over and Armeria); an unknown name is an error that lists the valid ones.
     */
    public static List<String> clients(String csv) {
        List<String> out = new ArrayList<>();
        for (String c : csv.split(",")) {
            String name = c.trim();
            List<String> family = Adapters.family(name);
            if (family == null && !Adapters.isClient(name)) {
                throw new IllegalArgumentException("unknown client '" + name + "'; valid: " + String.join(", ", Adapters.all())
                        + ", or the family " + Adapters.SPRING);
            }
            for (String client : family == null ? List.of(name) : family) {
                if (!out.contains(client)) {
                    out.add(client);
                }
            }
        }
        return out;
    }

    /** Cost, latency and syscalls at the common rate on HTTP/1.1, immediate answers; the JIT settled first. */
    private static Shape.Builder commonRate() {
        return Shape.open(COMMON_SHAPE).rate(COMMON_RATE).inFlight(64);
    }

    /**
     * A ten-minute budget on 2 cores: the common rate in two rounds of short windows, each fork steady first (bound
     * 20 s). No closed loop: one round of it could not be ranked, and its time goes to warming up.
     */
    private static List<Shape> quickShapes() {
        return List.of(commonRate().settleSeconds(20).warmup(1, 1).measure(2, 1).rounds(2).build());
    }

    /**
     * quick's common rate in two interleaved sets of four blocks of 1 s windows, every fork steady first: more pairs
     * apart on cost and p50 than quick's rounds, for a longer run (docs/reference/profiles.md#interleaved-sets says why
     * not yet the default).
     */
    private static List<Shape> interleavedShapes() {
        return List.of(commonRate().settleSeconds(20).warmup(1, 1).interleaved(4, 1).rounds(2).build());
    }

    /**
     * An hour's budget on 2 cores. Three rounds where the ranking rests (common rate, closed loop: per-request costs
     * repeat within a few percent), two of the knee search (its forks vary too much for an hour to narrow). Forks
     * warm up until steady (each fork's record says how long it took), then JMH warms up 1 s: its loop already ran.
     */
    private static List<Shape> standardShapes() {
        return List.of(
                commonRate().settleSeconds(26).warmup(1, 1).measure(3, 2).rounds(3).build(),
                Shape.closed("closed-x16", 16).settleSeconds(20).warmup(1, 1).measure(3, 2).rounds(3).build(),
                // The ladder from 1k to a knee near 32k takes 7 probes, confirmations 1-3 more, bisection to 5% four.
                Shape.capacity("capacity-http1").settleSeconds(20).warmup(2, 2).search(0.05, 14, 2).rounds(2).build(),
                // About 1,000 requests held at 1 s each: thread-per-request clients pay here.
                Shape.open("delay1s-1000").rate(1_000).delayMs(1_000).inFlight(2_000).settleSeconds(10)
                        .warmup(1, 1).measure(2, 2).build(),
                // 5% faults (503, reset, close, truncated body): counted by cause, not ranked; the mix is deterministic.
                Shape.open("faults-1000").rate(1_000).stub("", TrialSpec.FAULT_MIX).settleSeconds(10).warmup(1, 1)
                        .measure(2, 2).build());
    }

    /** Standard, plus HTTP/2 and TLS, payloads and as many long requests as a client holds, one round each. */
    private static List<Shape> fullShapes() {
        List<Shape> s = new ArrayList<>(standardShapes());
        s.add(Shape.capacity("capacity-h2").protocol("h2").settleSeconds(20).warmup(2, 2).search(0.05, 14, 2).build());
        s.add(Shape.open("h2c-2000").protocol("h2c").rate(2_000).settleSeconds(16).warmup(2, 1).measure(2, 2).build());
        s.add(Shape.open("https1-2000").protocol("https1").rate(2_000).settleSeconds(16).warmup(2, 1).measure(2, 2).build());
        // A new TLS connection per request: the handshake's cost. A full handshake costs JSSE milliseconds of CPU.
        s.add(Shape.open("tls-handshake-100").protocol("https1").rate(100).stub("keepAlive=false", "none")
                .warmup(1, 2).measure(1, 10).build());
        s.add(Shape.open("delay100ms-10000").rate(10_000).delayMs(100).inFlight(2_000).settleSeconds(16)
                .warmup(2, 1).measure(2, 2).build());
        s.add(Shape.open("post1k-2000").rate(2_000).requestBytes(1_024).settleSeconds(16).warmup(2, 1).measure(2, 3).build());
        s.add(Shape.open("get100k-1000").rate(1_000).responseBytes(100 * 1_024).settleSeconds(16).warmup(2, 1)
                .measure(2, 3).build());
        s.add(Shape.open("get1m-200").rate(200).responseBytes(1_024 * 1_024).settleSeconds(16).warmup(2, 1)
                .measure(2, 6).build());
        for (int n : new int[] {1_000, 4_000, 15_000}) {
            s.add(Shape.longLived("longlived-" + n, n).build());
        }
        return s;
    }

    /**
     * Every kind of result in a few minutes for two clients, for analysis/fixtures: the common rate over two rounds,
     * a knee search over two rounds, a server delay, a delay beyond the 5 s request timeout (every request fails), a
     * stalled body (requests still out at the drain: expired), h2c, a closed loop and a short long-lived shape.
     */
    private static List<Shape> fixtureShapes() {
        return List.of(
                commonRate().warmup(1, 1).measure(2, 1).rounds(2).build(),
                Shape.capacity("capacity-http1").warmup(1, 1).search(0.25, 6, 1).rounds(2).build(),
                Shape.open("delay100ms-500").rate(500).delayMs(100).inFlight(128).warmup(1, 1).measure(2, 1).build(),
                Shape.open("delay6s-50").rate(50).delayMs(6_000).inFlight(512).warmup(1, 1).measure(2, 1).build(),
                // Half a body, then nothing: clients time out; the JDK's timeout ends at the headers, so its requests expire.
                Shape.open("stall-50").rate(50).inFlight(512).stub("fault=stall", "none").warmup(0, 1).measure(1, 2).build(),
                Shape.open("h2c-500").protocol("h2c").rate(500).warmup(1, 1).measure(1, 1).build(),
                Shape.closed("closed-x4", 4).warmup(1, 1).measure(2, 1).rounds(2).build(),
                Shape.longLived("longlived-200", 200).delayMs(3_000).timeoutMs(4_000).inFlight(200)
                        .warmup(0, 1).measure(1, 2).build());
    }

    /**
     * {@code smoke}: that the pipeline works end to end (forks, stub, files, summary, report), not a measurement:
     * one measured second per fork, no warm-up; immediate answers at 1k req/s on HTTP/1.1 over two rounds, and on
     * h2c, so a client without HTTP/2 shows as skipped. With two clients it takes well under a minute.
     */
    private static List<Shape> smokeShapes() {
        return List.of(Shape.open("immediate-1000").settleSeconds(0).warmup(0, 1).interleaved(2, 1).rounds(2).build(),
                Shape.open("h2c-1000").protocol("h2c").settleSeconds(0).warmup(0, 1).measure(1, 1).build());
    }
}
