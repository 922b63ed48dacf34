package clientbench.cli;

import clientbench.adapters.Adapters;
import clientbench.harness.Flag;
import clientbench.harness.Slo;
import org.openjdk.jmh.results.RunResult;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The terminal's view of a run: one line per (shape, client), one table per run; and {@code summary.json},
 * the same facts ({@link Figures}) for the notebook.
 */
final class Summary {

    private Summary() {
    }

    static String line(RunResult r) {
        if (Capacity.BENCHMARK.equals(r.getParams().getBenchmark())) {
            // Each fork's search ends in its last measured iteration's facts; JMH's aggregate would average them
            // with the iterations that carry none.
            double kneeSum = 0;
            int forks = 0;
            int converged = 0;
            int open = 0;
            String ceilingParam = r.getParams().getParam("ceilingRate");
            double ceiling = ceilingParam == null ? Double.NaN : Double.parseDouble(ceilingParam);
            Set<String> flaggedAtBound = new TreeSet<>();
            for (org.openjdk.jmh.results.BenchmarkResult fork : r.getBenchmarkResults()) {
                org.openjdk.jmh.results.IterationResult last = null;
                for (org.openjdk.jmh.results.IterationResult it : fork.getIterationResults()) {
                    last = it;
                }
                double knee = last == null ? Double.NaN : Scores.of(last, "knee");
                if (!Double.isNaN(knee)) {
                    forks++;
                    kneeSum += knee;
                    converged += Scores.of(last, "knee.converged") == 1 ? 1 : 0;
                    open += Capacity.open(knee, Scores.of(last, "knee.high"), ceiling) ? 1 : 0;
                    flaggedAtBound.addAll(flagsAtBound(fork.getIterationResults(), Scores.of(last, "knee.high")));
                }
            }
            if (forks == 0) {
                return "the harness's baseline over the ladder (noop)";
            }
            return String.format(Locale.ROOT, "knee %8.0f req/s  (the mean over %d fork%s; %d converged)%s%s",
                    kneeSum / forks, forks, forks == 1 ? "" : "s", converged, open == 0 ? ""
                            : String.format(Locale.ROOT, "  open in %d: no rate failed before the probe budget ran out,"
                            + " the knee is only a lower bound", open), flaggedAtBound.isEmpty() ? ""
                            : "  flagged " + String.join(",", flaggedAtBound) + " where it missed: the search may have"
                            + " been stopped by what the flag names, not by the client alone");
        }
        Figures f = Figures.of(r, "", "", null);
        return String.format(Locale.ROOT, "ok %8.0f/s  %s p50 %8s  p99 %8s  failed %6.0f  unsent %6.0f  cpu %s/req  flags %s",
                f.ok(), f.latencyMetric(), ms(f.latencyP50()), ms(f.latencyP99()), f.failures(), f.unsent(),
                us(f.cpuMicrosPerRequest()), f.flagWords());
    }

    /**
     * {@link Capacity#flagsAtBound} over a fork's misses at {@code bound} (NaN: none failed), read from its iterations,
     * which carry the probe and flag metrics (HarnessProfiler).
     */
    private static Set<String> flagsAtBound(Collection<org.openjdk.jmh.results.IterationResult> iterations, double bound) {
        List<List<String>> misses = new java.util.ArrayList<>();
        for (org.openjdk.jmh.results.IterationResult it : iterations) {
            if (Scores.of(it, "probe.pass") == 1 || Scores.of(it, "probe.rate") != bound) {
                continue;
            }
            List<String> raised = new java.util.ArrayList<>();
            for (Flag f : Flag.values()) {
                if (Scores.of(it, f.metric()) > 0) {
                    raised.add(f.metric());
                }
            }
            misses.add(raised);
        }
        return Capacity.flagsAtBound(misses);
    }

    static String table(Collection<RunResult> all, List<Map<String, Object>> runs, List<Capacity.Result> capacity) {
        List<Figures> figures = Figures.of(all, runs);
        Map<String, Row> rows = new LinkedHashMap<>();
        for (Figures f : figures) {
            Row row = rows.computeIfAbsent(f.client(), c -> new Row());
            if (Double.isNaN(f.injectedFaults())) { // the faults shape's failures were asked for: the decision table's
                row.failures += f.failures();
                row.sent += f.sent();
            }
            if (f.sustained() && f.rate() > row.sustainedRate) {
                row.sustainedRate = f.rate();
                row.sustainedShape = f.shape();
                row.p50 = f.latencyP50();
                row.p99 = f.latencyP99();
                row.netCpu = f.netCpuMicrosPerRequest();
                row.netAlloc = f.netAllocatedBytesPerRequest();
            }
            if (f.benchmark().startsWith("ClosedLoop")) {
                row.closedOk = f.ok();
                row.closedFlags = f.flagWords();
            }
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-10s %12s %-18s %10s %10s %12s %12s %12s %10s %16s%n", "client",
                "sustained/s", "on shape", "p50", "p99", "net cpu/req", "net alloc", "closed ok/s", "(flags)", "failed"));
        rows.forEach((client, row) -> sb.append(String.format(Locale.ROOT,
                "%-10s %12s %-18s %10s %10s %12s %12s %12.0f %10s %16s%n", client,
                row.sustainedRate > 0 ? String.format(Locale.ROOT, "%.0f", row.sustainedRate) : "none",
                row.sustainedRate > 0 ? row.sustainedShape : "-", ms(row.p50), ms(row.p99), us(row.netCpu),
                bytes(row.netAlloc), row.closedOk, row.closedFlags,
                String.format(Locale.ROOT, "%.0f (%.2f%%)", row.failures, 100 * row.failures / Math.max(1, row.sent)))));
        sb.append("sustained: the highest fixed offered rate kept (99.9% ok, latency p99 within 10 ms of the server's\n")
          .append("delay; kept despite gen, lag, stub or steal counts), on the shape named (shapes differ in delay and\n")
          .append("protocol: compare clients shape by shape below, or in the decision table); p50/p99: latency from the\n")
          .append("intended start there; net: minus the noop baseline. failed: failures over the requests sent in the\n")
          .append("shapes where the stub injected none (the faults shape's are in the decision table).\n");
        if (!capacity.isEmpty()) {
            sb.append('\n').append(kneeTable(capacity));
        }
        sb.append('\n').append(netTable(figures));
        sb.append("flags (a flagged figure never counts against a client):\n");
        for (Flag flag : Flag.values()) {
            sb.append(String.format(Locale.ROOT, "  %-9s %s%n", flag.word(), flag.explanation()));
        }
        return sb.toString();
    }

    /** Per capacity shape and client: the knee over forks, and the probes that failed, with why. */
    private static String kneeTable(List<Capacity.Result> capacity) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-16s %-10s %12s %22s %10s %8s  %s%n", "shape", "client", "knee req/s",
                "forks (min-max)", "converged", "flagged", "first failure"));
        for (Capacity.Result r : capacity) {
            if (Adapters.NOOP.equals(r.client())) {
                continue;
            }
            String firstFailure = r.probes().stream().filter(p -> !p.pass()).findFirst()
                    .map(p -> String.format(Locale.ROOT, "%.0f/s: %s", p.rate(), p.why())).orElse("-");
            Set<String> flagged = r.flagsAtBound();
            sb.append(String.format(Locale.ROOT, "%-16s %-10s %12.0f %22s %10s %8s  %s%n", r.shape(), r.client(),
                    r.kneeMedian(), String.format(Locale.ROOT, "%.0f-%.0f (%d)", r.kneeMin(), r.kneeMax(), r.forks().size()),
                    r.allConverged() ? "yes" : r.anyOpen() ? "open" : "no", flagged.isEmpty() ? "-" : String.join(",", flagged),
                    firstFailure));
        }
        sb.append("knee: the highest offered rate kept (the same SLO), searched per fork: a ladder x2 from the start rate,\n")
          .append("bisection to the precision, a confirming probe; the median over forks and their range. flagged: a flag\n")
          .append("other than gen or lag on a miss at a fork's lowest failing rate (the host's steal, a busy stub, an\n")
          .append("unsteady window, too few samples) may have stopped that search, not the client alone (the report's\n")
          .append("decision table says whether it ranks it). open: a fork found no failing rate before its probe budget\n")
          .append("ran out (its misses the JIT's or a flag's, or not probed again): the knee is only a lower bound, ranked\n")
          .append("only where it clears every ranked interval.\n");
        return sb.toString();
    }

    /** Per shape and client: what callers got, and what it cost net of the harness (client - noop). */
    private static String netTable(List<Figures> figures) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-18s %-10s %10s %10s %10s %12s %12s %8s  %s%n", "shape", "client", "ok/s",
                "p99", "lag p99", "net cpu/req", "net alloc", "net thr", "flags"));
        for (Figures f : figures) {
            boolean noop = Adapters.NOOP.equals(f.client());
            sb.append(String.format(Locale.ROOT, "%-18s %-10s %10.0f %10s %10s %12s %12s %8s  %s%n", f.shape(), f.client(),
                    f.ok(), ms(f.latencyP99()), ms(f.lagP99()),
                    noop ? "(" + us(f.cpuMicrosPerRequest()) + ")" : us(f.netCpuMicrosPerRequest()),
                    noop ? "(" + bytes(f.allocatedBytesPerRequest()) + ")" : bytes(f.netAllocatedBytesPerRequest()),
                    noop ? String.format(Locale.ROOT, "(%.0f)", f.threadsMax())
                            : Double.isNaN(f.netThreads()) ? "-" : String.format(Locale.ROOT, "%+.0f", f.netThreads()),
                    f.flagWords()));
        }
        sb.append("net: the client's CPU time and allocation per request sent, and peak threads, minus the noop\n")
          .append("baseline's of the same shape (in parentheses: the baseline itself, the harness alone).\n");
        return sb.toString();
    }

    /** summary.json: every run's facts, the definitions they follow, and what each flag means. */
    static Map<String, Object> json(Collection<RunResult> all, List<Map<String, Object>> runs, List<Capacity.Result> capacity) {
        Map<String, Object> m = new LinkedHashMap<>();
        Map<String, Object> definitions = new LinkedHashMap<>();
        definitions.put("slo", Slo.DEFAULT.toJson());
        definitions.put("sustained", "an open-model rate kept: the SLO met (slo), as the knee search decides each probe");
        definitions.put("knee", "per fork, the highest offered rate kept (the SLO), searched: a ladder x2 from the start"
                + " rate, bisection to the precision, a confirming probe; over forks, the median and the range");
        definitions.put("netOfNoop", "client - noop of the same shape: cpu.per.req (us per request sent), "
                + "alloc.per.req (bytes per request sent), threads.max");
        definitions.put("jitShare", "per iteration (trial JSON probes.jitShare, capacity probes' jitShare): the time the"
                + " client JVM's JIT compilers spent compiling in the window over the window times its CPUs; above 0.1 the"
                + " JVM was still warming up and its CPU and latency figures include compilation");
        definitions.put("gcPauseMillis", "per iteration (trial JSON probes.gcPauseMillis, capacity probes' gcPauseMillis):"
                + " milliseconds the client JVM's collectors paused it in the window (concurrent collector work left out);"
                + " a pause as long as the SLO's latency bound can by itself fail a probe");
        definitions.put("stealShare", "per iteration (trial JSON probes.stealShare, capacity probes' stealShare, the"
                + " host.steal metric): the share of the machine's CPU time its hypervisor gave to other guests in the"
                + " window (/proc/stat's steal over every CPU); the host's slowness, not the client's");
        definitions.put("verdictLatency", "latency.* (every outcome, requests never completed at a lower bound), "
                + "not latency.ok.*");
        Map<String, String> flags = new LinkedHashMap<>();
        for (Flag f : Flag.values()) {
            flags.put(f.metric(), f.explanation());
        }
        definitions.put("flags", flags);
        m.put("definitions", definitions);
        m.put("runs", Figures.of(all, runs).stream().map(Figures::toJson).toList());
        m.put("capacity", Capacity.toJson(capacity));
        return m;
    }

    static String ms(double micros) {
        if (Double.isNaN(micros)) {
            return "-";
        }
        return micros >= 1000 ? String.format(Locale.ROOT, "%.1f ms", micros / 1000) : String.format(Locale.ROOT, "%.0f us", micros);
    }

    static String us(double micros) {
        return Double.isNaN(micros) ? "-" : String.format(Locale.ROOT, "%.1f us", micros);
    }

    static String bytes(double b) {
        if (Double.isNaN(b)) {
            return "-";
        }
        return Math.abs(b) >= 1024 ? String.format(Locale.ROOT, "%.1f KiB", b / 1024) : String.format(Locale.ROOT, "%.0f B", b);
    }

    private static final class Row {
        double sustainedRate;
        String sustainedShape = "";
        double p50 = Double.NaN;
        double p99 = Double.NaN;
        double netCpu = Double.NaN;
        double netAlloc = Double.NaN;
        double closedOk = Double.NaN;
        String closedFlags = "";
        double failures;
        double sent;
    }
}
