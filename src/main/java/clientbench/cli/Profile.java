package clientbench.cli;

import clientbench.adapters.Adapters;
import clientbench.harness.TrialSpec;
import clientbench.jmh.CapacityBenchmark;
import clientbench.jmh.ClosedLoopBenchmark;
import clientbench.jmh.LoadBenchmark;
import clientbench.jmh.LongLivedBenchmark;
import clientbench.jmh.OpenLoopBenchmark;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A named set of shapes for {@code ./bench --profile NAME}, each with its own run settings. Every shape
 * that can have one also runs {@code noop}, the harness alone, at the same settings: the baseline that
 * {@link Figures} and {@link Capacity} subtract from each client's CPU, allocation and threads.
 *
 * <ul>
 *   <li>{@code quick} (default, about ten minutes for every client on 2 cores): a first look, not for
 *       decisions (one fork, short probes, 10% precision): each client's knee on immediate responses, 100 ms
 *       server delay at 1k req/s, closed loop x16.</li>
 *   <li>{@code standard} (about an hour): for decisions. The knee on HTTP/1.1 (two forks run apart, {@link
 *       #schedule}; 5% precision) and on
 *       HTTP/2 over TLS; h2c and HTTPS/1.1 at 2k req/s; about 1,000 requests in flight at 100 ms and at 1 s
 *       server delay; 5% faults (status 503, reset, close, truncated body) at 1k req/s; a new TLS connection
 *       per request at 100 req/s (the handshake's cost); closed loop x16 (one fork, 18 s of warm-up).</li>
 *   <li>{@code full}: standard plus payloads (POST 1 KiB, GET 100 KiB, GET 1 MiB) and long-lived
 *       concurrency (1,000, 4,000 and 15,000 requests held, 40 s each, in a 30 s window).</li>
 *   <li>{@code smoke}: seconds per client, that the pipeline works (1k req/s on HTTP/1.1 and h2c, no
 *       warm-up, one 1 s iteration, 1 fork); not a measurement.</li>
 * </ul>
 *
 * @param purpose one line for the terminal and the report: what the profile is for, and what not
 */
public record Profile(String name, String purpose, List<Shape> shapes) {

    /**
     * How a shape runs: JMH's forks, warm-up and measured iterations and their length.
     *
     * @param forks separate JVMs: a figure over forks shows what varies between JVM starts
     */
    public record Timings(int forks, int warmupIterations, int warmupSeconds, int measurementIterations,
                          int measurementSeconds) {

        /** Seconds one run takes: its iterations, plus about 4 s of JVM and stub start and 0.5 s per drain. */
        int estimatedSeconds() {
            return forks * (warmupIterations * warmupSeconds + measurementIterations * measurementSeconds + 4
                    + (warmupIterations + measurementIterations) / 2);
        }
    }

    /**
     * One load shape: a benchmark class with fixed parameters; the client is added per run.
     *
     * @param name a short name for the terminal and the notebook (API: it ends up in result files)
     * @param timings how it runs; null: the benchmark's own settings (one long iteration, long-lived shapes)
     * @param baseline run {@code noop} at the same settings too
     */
    public record Shape(String name, String benchmark, Map<String, String> params, Timings timings, boolean baseline) {

        /** The protocol the shape pins, http1 when it pins none. */
        public String protocol() {
            return params.getOrDefault("protocol", "http1");
        }

        /** True for a shape that runs with the benchmark's own warm-up, measurement and forks. */
        public boolean ownTimings() {
            return timings == null;
        }

        /** The forks' JVM flags, plus this shape's name for the trial's record ({@code clientbench.shape}). */
        public String[] forkJvmArgs(List<String> base) {
            List<String> args = new ArrayList<>(base);
            args.add("-Dclientbench.shape=" + name);
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
         * Whether its forks run apart ({@link Profile#schedule}): a knee search with more than one fork. Its forks
         * are what its interval and the ranking rest on, so they should differ as the run's moments differ, not
         * share one spell of the host's.
         */
        boolean interleaved() {
            return CAPACITY.equals(benchmark) && timings != null && timings.forks() > 1;
        }

        /** The shape with one fork, for one pass of an {@link #interleaved} shape. */
        Shape oneFork() {
            return new Shape(name, benchmark, params, new Timings(1, timings.warmupIterations(), timings.warmupSeconds(),
                    timings.measurementIterations(), timings.measurementSeconds()), baseline);
        }

        /** Seconds one run of it takes, for the time-left estimate: a settling warm-up at its longest. */
        int estimatedSeconds() {
            return timings == null ? LONG_LIVED_SECONDS
                    : timings.estimatedSeconds() + timings.forks() * Integer.parseInt(params.getOrDefault("settleSeconds", "0"));
        }
    }

    static final String OPEN = OpenLoopBenchmark.class.getName() + "." + LoadBenchmark.METHOD;
    static final String CLOSED = ClosedLoopBenchmark.class.getName() + "." + LoadBenchmark.METHOD;
    static final String LONG_LIVED = LongLivedBenchmark.class.getName() + "." + LoadBenchmark.METHOD;
    static final String CAPACITY = CapacityBenchmark.class.getName() + "." + LoadBenchmark.METHOD;
    /** One iteration of LongLivedBenchmark: 30 s measured, about 25 s more for the requests to return, start-up. */
    static final int LONG_LIVED_SECONDS = 65;

    public static Profile named(String name) {
        return switch (name) {
            case "quick" -> new Profile("quick", "a first look, not for decisions: one fork, short probes, 10% precision",
                    quickShapes());
            case "standard" -> new Profile("standard", "for decisions: forks, 5% precision, HTTP/2 and TLS, ~1,000 in flight",
                    standardShapes());
            case "full" -> new Profile("full", "standard plus payloads and long-lived concurrency", fullShapes());
            // Not in names(): the analysis tests' fixture (analysis/fixtures/README.md), not a comparison.
            case "fixture" -> new Profile("fixture", "the analysis tests' fixture: every kind of result, not for decisions",
                    fixtureShapes());
            case "smoke" -> new Profile("smoke", "that the pipeline works end to end, seconds per client: not a measurement",
                    smokeShapes());
            default -> throw new IllegalArgumentException("unknown profile '" + name + "'; valid: " + String.join(", ", names()));
        };
    }

    /**
     * How long the profile promises a run of every client takes on 2 cores (issue 14: quick at most ten minutes,
     * standard an hour), which the retries of stopped searches must not break ({@link Retries#budget}); null: none.
     */
    public java.time.Duration timeLimit() {
        return switch (name) {
            case "quick" -> java.time.Duration.ofMinutes(10);
            case "standard" -> java.time.Duration.ofMinutes(60);
            default -> null;
        };
    }

    public static List<String> names() {
        return List.of("quick", "standard", "full", "smoke");
    }

    /** Every client of the comparison, in the registry's order. */
    public static List<String> allClients() {
        return Adapters.names();
    }

    /** Parses {@code a,b}; an unknown name is an error that lists the valid ones. */
    public static List<String> clients(String csv) {
        List<String> out = new ArrayList<>();
        for (String c : csv.split(",")) {
            String name = c.trim();
            if (!Adapters.names().contains(name)) {
                throw new IllegalArgumentException("unknown client '" + name + "'; valid: " + String.join(", ", Adapters.names()));
            }
            if (!out.contains(name)) {
                out.add(name);
            }
        }
        return out;
    }

    /**
     * One JMH run of a comparison: a shape (one fork of it, for a pass of an interleaved shape), a client, and
     * which pass of how many (1 of 1 for a shape whose forks run together).
     */
    public record Step(Shape shape, String client, int pass, int passes) {

        /** "fork 1 of 2" for a fork run apart (env.json's failed and retried say which), "" otherwise. */
        String fork() {
            return passes == 1 ? "" : "fork " + pass + " of " + passes;
        }

        /** "fork 1/2 " for the terminal's progress lines of a fork run apart, "" otherwise. */
        String progress() {
            return passes == 1 ? "" : "fork " + pass + "/" + passes + " ";
        }
    }

    /**
     * The JMH runs for {@code chosen}, in the order they run, noop baselines included: every shape in its place,
     * except that a knee search with several forks ({@link Shape#interleaved}) runs one fork there and each further
     * fork after every shape, clients in reverse order on even passes. On this project's shared 2-core machines the
     * host takes the CPU back in spells of minutes; a client's forks run back to back share one spell, so their
     * spread (which the knee's interval rests on) misses how the run's moments differ, and a client that ran in a
     * bad spell is ranked on it alone. Run apart, each client's forks sample two moments of the run whose mean
     * time is about the same for every client. {@code interleave} false (JMH's {@code -f} given, which then sets
     * every run's forks): every shape's forks run together.
     */
    public List<Step> schedule(List<String> chosen, boolean interleave) {
        List<Step> out = new ArrayList<>();
        int passes = 1;
        for (Shape shape : shapes) {
            boolean apart = interleave && shape.interleaved();
            int n = apart ? shape.timings().forks() : 1;
            passes = Math.max(passes, n);
            for (String client : shape.clients(chosen)) {
                out.add(new Step(apart ? shape.oneFork() : shape, client, 1, n));
            }
        }
        for (int pass = 2; pass <= passes; pass++) {
            for (Shape shape : shapes) {
                if (!(interleave && shape.interleaved()) || shape.timings().forks() < pass) {
                    continue;
                }
                List<String> clients = new ArrayList<>(shape.clients(chosen));
                if (pass % 2 == 0) {
                    Collections.reverse(clients);
                }
                for (String client : clients) {
                    out.add(new Step(shape.oneFork(), client, pass, shape.timings().forks()));
                }
            }
        }
        return out;
    }

    /** The knee search on immediate answers: the ladder starts at 1,000 req/s and stops at 64,000. */
    private static Shape capacity(String name, String protocol, double precision, int probes, int probeSeconds, int forks,
                                  boolean baseline) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("protocol", protocol);
        p.put("startRate", "1000");
        p.put("ceilingRate", "64000");
        p.put("precision", Double.toString(precision));
        p.put("concurrency", "64");
        p.put("connections", "64");
        return new Shape(name, CAPACITY, Map.copyOf(p), new Timings(forks, 2, probeSeconds, probes, probeSeconds), baseline);
    }

    private static Shape open(String name, String protocol, int rate, int delayMs, int concurrency, int bytes,
                              int requestBytes, Timings timings) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("protocol", protocol);
        p.put("rate", Integer.toString(rate));
        p.put("delayMs", Integer.toString(delayMs));
        p.put("concurrency", Integer.toString(concurrency));
        p.put("connections", Integer.toString(concurrency));
        p.put("bytes", Integer.toString(bytes));
        p.put("requestBytes", Integer.toString(requestBytes));
        return new Shape(name, OPEN, Map.copyOf(p), timings, true);
    }

    private static Shape withStub(Shape s, String stubQuery, String faults) {
        Map<String, String> p = new LinkedHashMap<>(s.params());
        p.put("stubQuery", stubQuery);
        p.put("faults", faults);
        return new Shape(s.name(), s.benchmark(), Map.copyOf(p), s.timings(), s.baseline());
    }

    private static Shape closed(int loops, Timings timings) {
        return new Shape("closed-x" + loops, CLOSED, Map.of("concurrency", Integer.toString(loops), "connections", "64"),
                timings, true);
    }

    /** About ten minutes for thirteen runs a shape on 2 cores; every number measured, few of them. */
    private static List<Shape> quickShapes() {
        List<Shape> s = new ArrayList<>();
        s.add(capacity("capacity-http1", "http1", 0.10, 6, 2, 1, true));
        s.add(open("delay100ms-1000", "http1", 1_000, 100, 256, 5, 0, new Timings(1, 1, 2, 2, 2)));
        s.add(closed(16, new Timings(1, 1, 2, 2, 2)));
        return s;
    }

    /** The source material's shapes, HTTP/2 and TLS, with forks where a ranking rests on them. */
    private static List<Shape> standardShapes() {
        // Every fork starts two cold JVMs (client and stub), and on 2 cores they compile for 12-18 s: at 2k req/s
        // h2c, ahc, okhttp, vertx, helidon and jdk compiled for over 10% of every 2 s window for 12-16 s (the JIT
        // share of each window is recorded), with CPU per request 2-4 times its settled value and p99 higher; warmed
        // at 8k req/s they took as long and jdk did not settle in 20 s. So the fixed-rate shapes settle at their
        // own rate until a window's JIT share is under 10% (at most SETTLE_SECONDS). After a quiet window, JMH's own
        // loop compiled again in the first iteration it ran (JIT over 10% in 23 of 56 quiet forks of run 20261123-073309-vm):
        // a 1 s JMH warm-up takes that, then two 2 s windows are measured (2,000-20,000 samples each). A figure taken
        // while the JIT still ran is marked in the report.
        Timings fixed = new Timings(1, 1, 1, 2, 2);
        List<Shape> s = new ArrayList<>();
        // A knee search to 5%: the ladder from 1k req/s to a knee near 32k takes 7 probes, the flagged misses probed
        // again 1-3 more, bisection from a factor of 2 to 5% four and the confirmation one. 10 probes of 3 s
        // converged 1 of the 35 forks' searches of run 20261123-045539-vm (ahc's forks ended at [32000, 64000)),
        // 2 of 35 in the run after it; 14 of 2 s take less time, and 2 s at the 1k rung still hold 2,000 samples.
        s.add(capacity("capacity-http1", "http1", 0.05, 14, 2, 2, true));
        // noop has no network, so the HTTP/1.1 shape's ladder is its baseline here too (Capacity.baseline)
        s.add(capacity("capacity-h2", "h2", 0.05, 14, 2, 1, false));
        s.add(settled(open("h2c-2000", "h2c", 2_000, 0, 64, 5, 0, fixed)));
        s.add(settled(open("https1-2000", "https1", 2_000, 0, 64, 5, 0, fixed)));
        s.add(settled(open("delay100ms-10000", "http1", 10_000, 100, 2_000, 5, 0, fixed)));
        s.add(settled(open("delay1s-1000", "http1", 1_000, 1_000, 2_000, 5, 0, fixed)));
        // Not settled: the faults shape is not ranked, it counts failures by cause, and the stub's mix puts them by
        // request number, so a compiling JIT does not change them; settling it took 2.6 min of run 20261123-084046-vm.
        s.add(withStub(open("faults-1000", "http1", 1_000, 0, 64, 5, 0, fixed), "", TrialSpec.FAULT_MIX));
        // A new TLS connection per request: the handshake's cost in latency and CPU. 100/s, as a full handshake
        // costs the JDK's JSSE milliseconds of CPU on each side; a 10 s window for 1,000 samples.
        s.add(withStub(open("tls-handshake-100", "https1", 100, 0, 64, 5, 0, new Timings(1, 1, 2, 1, 10)),
                "keepAlive=false", "none"));
        // Closed loops at x16 sped up for 12-30 s of a fork (ahc 8k -> 70k ok/s, settled after 18 s; okhttp after
        // 30 s): 2 warm-ups of 3 s left every client's measured iterations flagged unsteady. 18 s of warm-up in
        // one fork fits the hour where 6 s in two did not; two measured iterations, for the hour's sake.
        s.add(closed(16, new Timings(1, 2, 9, 2, 3)));
        return s;
    }

    /** The longest a fixed-rate shape of standard settles before it measures: the slowest client measured took 16 s. */
    static final int SETTLE_SECONDS = 16;

    /** The shape, first run until the client JVM's JIT is quiet (OpenLoopBenchmark's settleSeconds). */
    private static Shape settled(Shape s) {
        Map<String, String> p = new LinkedHashMap<>(s.params());
        p.put("settleSeconds", Integer.toString(SETTLE_SECONDS));
        return new Shape(s.name(), s.benchmark(), Map.copyOf(p), s.timings(), s.baseline());
    }

    /**
     * Every kind of result in about six minutes for two clients, for analysis/fixtures: a knee search over two
     * forks, a server delay, a delay beyond the 5 s request timeout (every request fails), a stalled body
     * (requests still out at the drain: expired), h2c and HTTPS/1.1,
     * a closed loop over two forks and a short long-lived shape.
     */
    private static List<Shape> fixtureShapes() {
        Timings fixed = new Timings(1, 1, 1, 3, 1);
        List<Shape> s = new ArrayList<>();
        s.add(capacity("capacity-http1", "http1", 0.25, 7, 1, 2, true));
        s.add(open("delay100ms-500", "http1", 500, 100, 128, 5, 0, fixed));
        s.add(open("delay6s-50", "http1", 50, 6_000, 512, 5, 0, new Timings(1, 1, 1, 2, 1)));
        // Half a body, then nothing: clients time out; the JDK's timeout ends at the headers, so its requests expire.
        s.add(withStub(open("stall-50", "http1", 50, 0, 512, 5, 0, new Timings(1, 0, 1, 1, 2)), "fault=stall", "none"));
        s.add(open("h2c-500", "h2c", 500, 0, 64, 5, 0, new Timings(1, 1, 1, 1, 1)));
        s.add(open("https1-500", "https1", 500, 0, 64, 5, 0, new Timings(1, 1, 1, 1, 1)));
        s.add(closed(4, new Timings(2, 1, 1, 2, 1)));
        s.add(new Shape("longlived-200", LONG_LIVED, Map.of("concurrency", "200", "delayMs", "3000", "timeoutMs", "4000",
                "connections", "200"), new Timings(1, 0, 1, 1, 2), false));
        return s;
    }

    /** Standard, plus payloads and as many long requests as a client holds. */
    private static List<Shape> fullShapes() {
        Timings fixed = new Timings(1, 0, 1, 2, 3);
        List<Shape> s = standardShapes();
        s.add(settled(open("post1k-2000", "http1", 2_000, 0, 64, 5, 1_024, fixed)));
        s.add(settled(open("get100k-1000", "http1", 1_000, 0, 64, 100 * 1_024, 0, fixed)));
        s.add(settled(open("get1m-200", "http1", 200, 0, 64, 1_024 * 1_024, 0, new Timings(1, 0, 1, 2, 6))));
        for (int n : new int[] {1_000, 4_000, 15_000}) {
            s.add(new Shape("longlived-" + n, LONG_LIVED, Map.of("concurrency", Integer.toString(n)), null, false));
        }
        return s;
    }

    /**
     * {@code smoke}: seconds long, to see that the pipeline works end to end (forks, stub, files, summary,
     * report), not to measure: one measured second per run, no warm-up, 1 fork; immediate responses at 1k
     * req/s on HTTP/1.1 and on h2c, so a client without HTTP/2 shows as skipped. With two clients
     * ({@code --clients jdk,apache-vt}) it takes well under a minute.
     */
    private static List<Shape> smokeShapes() {
        Timings once = new Timings(1, 0, 1, 1, 1);
        return List.of(open("immediate-1000", "http1", 1_000, 0, 64, 5, 0, once), open("h2c-1000", "h2c", 1_000, 0, 64, 5, 0, once));
    }
}
