package clientbench.cli;

import clientbench.api.Outcome;
import org.openjdk.jmh.results.RunResult;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The terminal's view of a run: one line per (shape, client), one table per run. */
final class Summary {

    /** Sustained: ok/s within 1% of the offered rate and no more than 0.1% of sent requests failed. */
    static final double SUSTAINED_SHARE = 0.99;
    static final double MAX_FAILURE_SHARE = 0.001;

    private Summary() {
    }

    static String line(RunResult r) {
        boolean open = r.getParams().getBenchmark().contains("OpenLoop");
        String lat = open ? "latency" : "service";
        return String.format(Locale.ROOT, "ok %8.0f/s  %s p50 %8s  p99 %8s  failed %6.0f  dropped %6.0f  alloc %s/req",
                Bench.score(r, "ok"), lat, ms(Bench.score(r, lat + ".p50")), ms(Bench.score(r, lat + ".p99")),
                failures(r), Bench.score(r, "n.dropped"), bytes(Bench.score(r, "gc.alloc.rate.norm")));
    }

    static double failures(RunResult r) {
        double n = 0;
        for (Outcome o : Outcome.failures()) {
            double v = Bench.score(r, "n.fail." + o.label());
            n += Double.isNaN(v) ? 0 : v;
        }
        return n;
    }

    static String table(Collection<RunResult> all, List<Map<String, Object>> runs) {
        Map<String, Row> rows = new LinkedHashMap<>();
        int i = 0;
        for (RunResult r : all) {
            Map<String, Object> meta = runs.get(i++);
            String client = (String) meta.get("client");
            Row row = rows.computeIfAbsent(client, c -> new Row());
            row.failures += failures(r);
            row.sent += Bench.score(r, "n.sent");
            String rateParam = r.getParams().getParamsKeys().contains("rate") ? r.getParams().getParam("rate") : null;
            boolean immediate = ((String) meta.get("shape")).startsWith("immediate-");
            if (rateParam != null && immediate) {
                double rate = Double.parseDouble(rateParam);
                double sent = Bench.score(r, "n.sent");
                boolean sustained = Bench.score(r, "ok") >= SUSTAINED_SHARE * rate
                        && failures(r) <= MAX_FAILURE_SHARE * Math.max(1, sent);
                if (sustained && rate > row.sustainedRate) {
                    row.sustainedRate = rate;
                    row.p50 = Bench.score(r, "latency.p50");
                    row.p99 = Bench.score(r, "latency.p99");
                    row.alloc = Bench.score(r, "gc.alloc.rate.norm");
                }
            }
            if (r.getParams().getBenchmark().contains("ClosedLoop")) {
                row.closedOk = Bench.score(r, "ok");
            }
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-10s %12s %10s %10s %12s %12s %12s%n", "client", "sustained/s",
                "p50", "p99", "alloc/req", "closed ok/s", "failed"));
        rows.forEach((client, row) -> sb.append(String.format(Locale.ROOT, "%-10s %12s %10s %10s %12s %12.0f %12s%n",
                client, row.sustainedRate > 0 ? String.format(Locale.ROOT, "%.0f", row.sustainedRate) : "none",
                ms(row.p50), ms(row.p99), bytes(row.alloc), row.closedOk,
                String.format(Locale.ROOT, "%.0f (%.2f%%)", row.failures, 100 * row.failures / Math.max(1, row.sent)))));
        sb.append("sustained: the highest offered rate (immediate responses) with ok/s >= 99% of it and <= 0.1% failed;\n")
          .append("p50/p99: latency from the intended start at that rate.\n");
        return sb.toString();
    }

    static String ms(double micros) {
        if (Double.isNaN(micros)) {
            return "-";
        }
        return micros >= 1000 ? String.format(Locale.ROOT, "%.1f ms", micros / 1000) : String.format(Locale.ROOT, "%.0f us", micros);
    }

    static String bytes(double b) {
        if (Double.isNaN(b)) {
            return "-";
        }
        return b >= 1024 ? String.format(Locale.ROOT, "%.1f KiB", b / 1024) : String.format(Locale.ROOT, "%.0f B", b);
    }

    private static final class Row {
        double sustainedRate;
        double p50 = Double.NaN;
        double p99 = Double.NaN;
        double alloc = Double.NaN;
        double closedOk = Double.NaN;
        double failures;
        double sent;
    }
}
