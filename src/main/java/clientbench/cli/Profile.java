package clientbench.cli;

import clientbench.adapters.Adapters;
import clientbench.jmh.ClosedLoopBenchmark;
import clientbench.jmh.LoadBenchmark;
import clientbench.jmh.LongLivedBenchmark;
import clientbench.jmh.OpenLoopBenchmark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A named set of shapes and run settings for {@code ./bench --profile NAME}. Every open- and
 * closed-loop shape also runs {@code noop}, the harness alone, at the same settings: the baseline that
 * {@link Figures} subtracts from each client's CPU, allocation and threads.
 *
 * <ul>
 *   <li>{@code quick} (default, about eleven minutes on 2 cores): every client; immediate responses at
 *       1k, 4k and 8k req/s, 100 ms server delay at 1k req/s, closed loop x16; 1 fork, 1 x 2 s warm-up,
 *       2 x 2 s measured. Short but honest: every number is measured, the error bars say how little.</li>
 *   <li>{@code standard} (about an hour): immediate responses at 1k-16k req/s, 100 ms delay at 10k req/s
 *       and 1 s delay at 1k req/s (about 1,000 in flight each), closed loop; 3 forks, 3 x 5 s warm-up,
 *       5 x 5 s measured: publishable.</li>
 *   <li>{@code full}: standard plus payloads (POST 1 KiB, GET 100 KiB, GET 1 MiB), HTTPS/1.1, h2c and h2
 *       at 2k req/s, and long-lived concurrency (1,000, 4,000 and 15,000 requests held, 40 s each, in a 30 s window).</li>
 * </ul>
 */
public record Profile(String name, int forks, int warmupIterations, int warmupSeconds, int measurementIterations,
                      int measurementSeconds, List<Shape> shapes) {

    /**
     * One load shape: a benchmark class with fixed parameters; the client is added per run.
     *
     * @param name a short name for the terminal and the notebook (API: it ends up in result files)
     * @param ownTimings run with the benchmark's own warm-up, measurement and fork settings (one long
     *                   iteration), not the profile's
     */
    public record Shape(String name, String benchmark, Map<String, String> params, boolean ownTimings) {
        Shape(String name, String benchmark, Map<String, String> params) {
            this(name, benchmark, params, false);
        }

        /** The protocol the shape pins, http1 when it pins none. */
        public String protocol() {
            return params.getOrDefault("protocol", "http1");
        }

        /** The forks' JVM flags, plus this shape's name for the trial's record ({@code clientbench.shape}). */
        public String[] forkJvmArgs(List<String> base) {
            List<String> args = new ArrayList<>(base);
            args.add("-Dclientbench.shape=" + name);
            return args.toArray(String[]::new);
        }

        /** Open- and closed-loop shapes measure the harness's own cost too: {@code noop}, at the same settings. */
        public boolean hasBaseline() {
            return benchmark.equals(OPEN) || benchmark.equals(CLOSED);
        }

        /**
         * The clients this shape runs: {@code chosen}, then {@link Adapters#NOOP} where the shape has a
         * baseline, so that every run publishes the harness's cost at the same rate and pinning.
         */
        public List<String> clients(List<String> chosen) {
            if (!hasBaseline() || chosen.contains(Adapters.NOOP)) {
                return chosen;
            }
            List<String> all = new ArrayList<>(chosen);
            all.add(Adapters.NOOP);
            return List.copyOf(all);
        }
    }

    static final String OPEN = OpenLoopBenchmark.class.getName() + "." + LoadBenchmark.METHOD;
    static final String CLOSED = ClosedLoopBenchmark.class.getName() + "." + LoadBenchmark.METHOD;
    static final String LONG_LIVED = LongLivedBenchmark.class.getName() + "." + LoadBenchmark.METHOD;
    /** One iteration of LongLivedBenchmark: 30 s measured, about 25 s more for the requests to return, start-up. */
    static final int LONG_LIVED_SECONDS = 65;

    public static Profile named(String name) {
        return switch (name) {
            case "quick" -> new Profile("quick", 1, 1, 2, 2, 2, quickShapes());
            case "standard" -> new Profile("standard", 3, 3, 5, 5, 5, standardShapes());
            case "full" -> new Profile("full", 3, 3, 5, 5, 5, fullShapes());
            case "smoke" -> new Profile("smoke", 1, 0, 1, 1, 1, smokeShapes());
            default -> throw new IllegalArgumentException("unknown profile '" + name + "'; valid: " + String.join(", ", names()));
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

    /** Seconds one run (one shape, one client) takes, JVM start-ups included, for the time-left estimate. */
    public int estimatedSecondsPerRun() {
        return forks * (warmupIterations * warmupSeconds + measurementIterations * measurementSeconds + 4);
    }

    /** Seconds the whole profile takes for {@code clients} clients, noop baselines included. */
    public long estimatedSeconds(int clients) {
        long s = 0;
        for (Shape shape : shapes) {
            s += (shape.ownTimings() ? LONG_LIVED_SECONDS : estimatedSecondsPerRun())
                    * (clients + (shape.hasBaseline() ? 1 : 0));
        }
        return s;
    }

    /** Runs (shape, client) the profile makes for {@code chosen}, noop baselines included. */
    public int runs(List<String> chosen) {
        return shapes.stream().mapToInt(shape -> shape.clients(chosen).size()).sum();
    }

    private static Shape open(String name, int rate, int delayMs, int concurrency, int connections, int bytes,
                              int requestBytes) {
        return new Shape(name, OPEN, Map.of("rate", Integer.toString(rate), "delayMs", Integer.toString(delayMs),
                "concurrency", Integer.toString(concurrency), "connections", Integer.toString(connections),
                "bytes", Integer.toString(bytes), "requestBytes", Integer.toString(requestBytes)));
    }

    private static Shape closed(int loops) {
        return new Shape("closed-x" + loops, CLOSED, Map.of("concurrency", Integer.toString(loops), "connections", "64"));
    }

    private static List<Shape> sweep(int... rates) {
        return Arrays.stream(rates).mapToObj(r -> open("immediate-" + r, r, 0, 64, 64, 5, 0)).collect(Collectors.toList());
    }

    private static List<Shape> quickShapes() {
        List<Shape> s = sweep(1_000, 4_000, 8_000);
        s.add(open("delay100ms-1000", 1_000, 100, 256, 256, 5, 0));
        s.add(closed(16));
        return s;
    }

    /** The source material's shapes: ~1,000 requests in flight at 100 ms and at 1 s server delay. */
    private static List<Shape> standardShapes() {
        List<Shape> s = sweep(1_000, 2_000, 4_000, 8_000, 16_000);
        s.add(open("delay100ms-10000", 10_000, 100, 2_000, 2_000, 5, 0));
        s.add(open("delay1s-1000", 1_000, 1_000, 2_000, 2_000, 5, 0));
        s.add(closed(16));
        return s;
    }

    /** Standard, plus payloads, TLS and HTTP/2, and as many long requests as a client holds. */
    private static List<Shape> fullShapes() {
        List<Shape> s = standardShapes();
        s.add(open("post1k-2000", 2_000, 0, 64, 64, 5, 1_024));
        s.add(open("get100k-1000", 1_000, 0, 64, 64, 100 * 1_024, 0));
        s.add(open("get1m-200", 200, 0, 64, 64, 1_024 * 1_024, 0));
        for (String protocol : List.of("https1", "h2c", "h2")) {
            Map<String, String> p = new java.util.HashMap<>(open("", 2_000, 0, 64, 64, 5, 0).params());
            p.put("protocol", protocol);
            s.add(new Shape(protocol + "-2000", OPEN, Map.copyOf(p)));
        }
        for (int n : new int[] {1_000, 4_000, 15_000}) {
            s.add(new Shape("longlived-" + n, LONG_LIVED, Map.of("concurrency", Integer.toString(n)), true));
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
        Map<String, String> h2c = new java.util.HashMap<>(open("", 1_000, 0, 64, 64, 5, 0).params());
        h2c.put("protocol", "h2c");
        return List.of(open("immediate-1000", 1_000, 0, 64, 64, 5, 0), new Shape("h2c-1000", OPEN, Map.copyOf(h2c)));
    }
}
