package clientbench.plan;

import clientbench.adapters.Adapters;
import clientbench.harness.TrialSpec;
import clientbench.jmh.CapacityBenchmark;
import clientbench.jmh.ClosedLoopBenchmark;
import clientbench.jmh.LoadBenchmark;
import clientbench.jmh.LoadState;
import clientbench.jmh.LongLivedBenchmark;
import clientbench.jmh.OpenLoopBenchmark;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One load shape of a profile: a benchmark with fixed parameters (the client added per run), how its forks run
 * ({@code timings}; null: the benchmark's own) and in how many rounds, each running every client, and noop with
 * {@code baseline}, once in a new order ({@link Schedule}). {@code name} is API: it ends up in result files.
 */
public record Shape(String name, String benchmark, Map<String, String> params, Timings timings, int rounds,
                    boolean baseline, int blocks) {

    public Shape {
        if (rounds < 1) {
            throw new IllegalArgumentException(name + ": rounds must be >= 1, was " + rounds);
        }
        if (blocks < 0 || blocks > 0 && (timings == null || timings.measurementIterations() != blocks)) {
            throw new IllegalArgumentException(name + ": an interleaved shape measures one window a block, was " + blocks
                    + " blocks with " + timings);
        }
        params = Map.copyOf(params);
    }

    public Shape(String name, String benchmark, Map<String, String> params, Timings timings, int rounds, boolean baseline) {
        this(name, benchmark, params, timings, rounds, baseline, 0);
    }

    /**
     * Whether its rounds are interleaved sets (clientbench.run.InterleavedSet runs them): every client's fork alive at once, one
     * measured window each per block, in a new order each block; {@link #blocks} windows a fork.
     */
    public boolean interleaved() {
        return blocks > 0;
    }

    /**
     * How a fork runs: JMH's warm-up and measured iterations and their length (one fork per round).
     */
    public record Timings(int warmupIterations, int warmupSeconds, int measurementIterations, int measurementSeconds) {

        /** Seconds one fork takes: its iterations, plus 2 s for its JVM to start and end and 0.5 s per drain. */
        public int estimatedSeconds() {
            return warmupIterations * warmupSeconds + measurementIterations * measurementSeconds + 2
                    + (warmupIterations + measurementIterations) / 2;
        }
    }

    public static final String OPEN = OpenLoopBenchmark.class.getName() + "." + LoadBenchmark.METHOD;
    static final String CLOSED = ClosedLoopBenchmark.class.getName() + "." + LoadBenchmark.METHOD;
    static final String LONG_LIVED = LongLivedBenchmark.class.getName() + "." + LoadBenchmark.METHOD;
    static final String CAPACITY = CapacityBenchmark.class.getName() + "." + LoadBenchmark.METHOD;
    /** One iteration of LongLivedBenchmark: 30 s measured, about 25 s more for the requests to return, start-up. */
    static final int LONG_LIVED_SECONDS = 65;

    /** Whether its rounds can be interleaved sets: a fixed rate or a closed loop (a knee search changes its rate). */
    public boolean canInterleave() {
        return timings != null && (benchmark.equals(OPEN) || benchmark.equals(CLOSED));
    }

    /**
     * This shape in {@code rounds} rounds; with {@code blocks} > 0 each an interleaved set of that many blocks, a
     * measured window of the shape's measured length each; 0: forks alone, as its timings say.
     */
    public Shape inRounds(int rounds, int blocks) {
        Timings t = blocks == 0 || timings == null ? timings : new Timings(timings.warmupIterations(),
                timings.warmupSeconds(), blocks, timings.measurementSeconds());
        return new Shape(name, benchmark, params, t, rounds, baseline, blocks);
    }

    /** This shape with its forks' settle bound {@code seconds} ({@link Builder#settleSeconds}). */
    public Shape withSettleSeconds(int seconds) {
        Map<String, String> p = new LinkedHashMap<>(params);
        p.put("settleSeconds", Integer.toString(seconds));
        return new Shape(name, benchmark, p, timings, rounds, baseline, blocks);
    }

    /** The forks' settle bound in seconds: the shape's, or the benchmark's default. */
    public int settleSeconds() {
        return Integer.parseInt(params.getOrDefault("settleSeconds", LoadBenchmark.DEFAULT_SETTLE_SECONDS));
    }

    /** The protocol the shape pins, http1 when it pins none. */
    public String protocol() {
        return params.getOrDefault("protocol", "http1");
    }

    /** True for a shape that runs with the benchmark's own warm-up and measurement. */
    public boolean ownTimings() {
        return timings == null;
    }

    /** The forks' JVM flags, plus this shape's name and the round for the trial's record. */
    public String[] forkJvmArgs(List<String> base, int round) {
        List<String> args = new ArrayList<>(base);
        args.add("-D" + LoadState.SHAPE + "=" + name);
        args.add("-D" + LoadState.ROUND + "=" + round);
        return args.toArray(String[]::new);
    }

    /** The clients this shape runs: {@code chosen}, then {@link Adapters#NOOP} where the shape has a baseline. */
    public List<String> clients(List<String> chosen) {
        if (!baseline || chosen.contains(Adapters.NOOP)) {
            return chosen;
        }
        List<String> all = new ArrayList<>(chosen);
        all.add(Adapters.NOOP);
        return List.copyOf(all);
    }

    /**
     * The warm-up the estimate counts for a fork to be steady at the common rate, where the shape's bound is longer:
     * most forks stop well before the bound, and each fork's record says how long it took.
     */
    static final int TYPICAL_SETTLE_SECONDS = 11;

    /**
     * Seconds one fork of it takes, for the time-left estimate: a typical warm-up, at most the shape's bound; a knee
     * search's whole bound (at its start rate a fork's latency rarely holds still before it).
     */
    public int estimatedSeconds() {
        int bound = settleSeconds();
        return timings == null ? LONG_LIVED_SECONDS : timings.estimatedSeconds() + blocks * RESUME_SECONDS
                + (benchmark.equals(CAPACITY) ? bound : Math.min(TYPICAL_SETTLE_SECONDS, bound));
    }

    /** The unmeasured window that opens each interleaved turn (clientbench.resumeMillis in the fork). */
    static final int RESUME_SECONDS = 1;

    /** An open-model shape: requests due at a fixed rate whatever the client does. */
    public static Builder open(String name) {
        return new Builder(name, OPEN).set("protocol", "http1").set("rate", "1000").set("delayMs", "0")
                .inFlight(64).set("bytes", "5").set("requestBytes", "0");
    }

    /** A closed-model shape: {@code loops} loops, each sending its next request when the last completes. */
    public static Builder closed(String name, int loops) {
        return new Builder(name, CLOSED).set("concurrency", Integer.toString(loops)).set("connections", "64");
    }

    /**
     * A knee search on immediate answers: the ladder starts at 1,000 req/s and stops at 64,000. No {@code noop}: the
     * harness alone keeps every rung of the ladder, and the cost figures come from the fixed-rate shapes.
     */
    public static Builder capacity(String name) {
        return new Builder(name, CAPACITY).set("protocol", "http1").set("startRate", "1000").set("ceilingRate", "64000")
                .inFlight(64).noBaseline();
    }

    /** As many requests held at once as {@code held}, each waiting on the server (the benchmark's own timings). */
    public static Builder longLived(String name, int held) {
        Builder b = new Builder(name, LONG_LIVED).set("concurrency", Integer.toString(held)).noBaseline();
        b.ownTimings = true;
        return b;
    }

    /** Names each setting of a shape; {@link #build} checks what the benchmark needs. */
    public static final class Builder {
        private final String name;
        private final String benchmark;
        private final Map<String, String> params = new LinkedHashMap<>();
        private Timings timings = new Timings(1, 1, 2, 2);
        private int rounds = 1;
        private int blocks;
        private boolean baseline = true;
        private boolean ownTimings;

        private Builder(String name, String benchmark) {
            this.name = name;
            this.benchmark = benchmark;
        }

        private Builder set(String key, String value) {
            params.put(key, value);
            return this;
        }

        public Builder protocol(String protocol) {
            return set("protocol", protocol);
        }

        public Builder rate(int perSecond) {
            return set("rate", Integer.toString(perSecond));
        }

        public Builder delayMs(int ms) {
            return set("delayMs", Integer.toString(ms));
        }

        /** The most requests in flight, and as many connections. */
        public Builder inFlight(int requests) {
            return set("concurrency", Integer.toString(requests)).set("connections", Integer.toString(requests));
        }

        public Builder responseBytes(int bytes) {
            return set("bytes", Integer.toString(bytes));
        }

        public Builder requestBytes(int bytes) {
            return set("requestBytes", Integer.toString(bytes));
        }

        /** More of the stub's query for every request, and its fault mix ({@link TrialSpec#FAULT_MIX} or none). */
        public Builder stub(String query, String faults) {
            return set("stubQuery", query).set("faults", faults);
        }

        /** Before JMH's warm-up, run until a window's JIT share is under the threshold, for at most this long. */
        public Builder settleSeconds(int seconds) {
            return set("settleSeconds", Integer.toString(seconds));
        }

        /** A knee search's final bracket width, and its probes (measured iterations) of {@code seconds} each. */
        public Builder search(double precision, int probes, int seconds) {
            set("precision", Double.toString(precision));
            timings = new Timings(timings.warmupIterations(), timings.warmupSeconds(), probes, seconds);
            return this;
        }

        /** A long-lived shape's request timeout, beyond its server delay. */
        public Builder timeoutMs(int ms) {
            return set("timeoutMs", Integer.toString(ms));
        }

        public Builder warmup(int iterations, int seconds) {
            ownTimings = false;
            timings = new Timings(iterations, seconds, timings.measurementIterations(), timings.measurementSeconds());
            return this;
        }

        public Builder measure(int iterations, int seconds) {
            ownTimings = false;
            timings = new Timings(timings.warmupIterations(), timings.warmupSeconds(), iterations, seconds);
            return this;
        }

        public Builder rounds(int n) {
            rounds = n;
            return this;
        }

        /**
         * Rounds as interleaved sets of {@code n} blocks, each a measured window of {@code seconds} per client; a fork's
         * warm-up (settling, then JMH's warm-up iterations) runs in its settle turn.
         */
        public Builder interleaved(int n, int seconds) {
            ownTimings = false;
            blocks = n;
            timings = new Timings(timings.warmupIterations(), timings.warmupSeconds(), n, seconds);
            return this;
        }

        /** No {@code noop} beside it (a shape whose baseline another shape measures, or that nets nothing). */
        public Builder noBaseline() {
            baseline = false;
            return this;
        }

        public Shape build() {
            return new Shape(name, benchmark, params, ownTimings ? null : timings, rounds, baseline, blocks);
        }
    }
}
