package clientbench.results;

import clientbench.api.Outcome;
import org.openjdk.jmh.results.RunResult;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * results.csv: one row per (shape, client), beside results.json: what ran and the exact counts. Its figures (rates,
 * percentiles, costs) are the analysis's columns, each by the one estimator the verdict uses
 * (docs/reference/verdict.md), so no figure here differs from the report's; docs/reference/files.md lists every column
 * with its unit.
 */
final class ResultsCsv {
    static final String FILE = "results.csv";

    /** One row's view: the JMH result and the shape and client it ran. */
    record Row(String run, String shape, String client, RunResult result) {
        String param(String name) {
            return result.getParams().getParamsKeys().contains(name) ? result.getParams().getParam(name) : "";
        }

        /** The open model, as the harness recorded it: it names latency from the intended start only there. */
        boolean open() {
            return SecondaryMetrics.all(result).containsKey("latency.p50");
        }

        String latencyMetric() {
            return open() ? "latency" : "service";
        }

        double score(String label) {
            return SecondaryMetrics.of(result, label);
        }
    }

    /** The columns in order; the README's table says what each holds. */
    static final Map<String, Function<Row, Object>> COLUMNS = columns();

    private ResultsCsv() {
    }

    private static Map<String, Function<Row, Object>> columns() {
        Map<String, Function<Row, Object>> c = new LinkedHashMap<>();
        c.put("run", Row::run);
        c.put("shape", Row::shape);
        c.put("client", Row::client);
        c.put("benchmark", r -> simpleName(r.result().getParams().getBenchmark()));
        c.put("model", r -> r.open() ? "open" : "closed");
        c.put("protocol", r -> r.param("protocol"));
        for (String p : List.of("rate", "delayMs", "bytes", "requestBytes", "concurrency")) {
            c.put(p, r -> r.param(p));
        }
        c.put("connections.limit", r -> r.param("connections"));
        c.put("forks", r -> r.result().getParams().getForks());
        for (String n : List.of("n.scheduled", "n.sent", "n.ok")) {
            c.put(n, r -> r.score(n));
        }
        c.put("n.failed", r -> Arrays.stream(Outcome.failures())
                .mapToDouble(o -> r.score("n.fail." + o.label())).filter(v -> !Double.isNaN(v)).sum());
        for (Outcome o : Outcome.failures()) {
            c.put("n.fail." + o.label(), r -> r.score("n.fail." + o.label()));
        }
        c.put("n.dropped", r -> r.score("n.dropped"));
        c.put("latency.metric", Row::latencyMetric);
        for (String m : List.of("threads.max", "connections", "inflight.end", "heap.per.inflight")) {
            c.put(m, r -> r.score(m));
        }
        return c;
    }

    private static String simpleName(String benchmark) {
        String[] parts = benchmark.split("\\.");
        return parts.length >= 2 ? parts[parts.length - 2] : benchmark;
    }

    /**
     * Writes {@code file} (through a temporary file beside it). {@code runs} holds each result's shape and
     * client, in the order of {@code results}.
     */
    static void write(Path file, String runName, Collection<RunResult> results, List<Map<String, Object>> runs)
            throws IOException {
        StringBuilder sb = new StringBuilder(String.join(",", COLUMNS.keySet())).append('\n');
        Iterator<Map<String, Object>> meta = runs.iterator();
        for (RunResult r : results) {
            Map<String, Object> m = meta.next();
            Row row = new Row(runName, (String) m.get("shape"), (String) m.get("client"), r);
            List<String> cells = new ArrayList<>();
            COLUMNS.values().forEach(f -> cells.add(cell(f.apply(row))));
            sb.append(String.join(",", cells)).append('\n');
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, sb, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    static String cell(Object v) {
        if (v instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) {
                return "";
            }
            // Whole numbers as such (totals); the rest to 3 decimals, trailing zeros dropped.
            BigDecimal b = BigDecimal.valueOf(d).setScale(3, RoundingMode.HALF_EVEN).stripTrailingZeros();
            return b.scale() <= 0 ? b.toBigInteger().toString() : b.toPlainString();
        }
        String s = String.valueOf(v);
        return s.contains(",") || s.contains("\"") || s.contains("\n") ? '"' + s.replace("\"", "\"\"") + '"' : s;
    }
}
