package clientbench.run;

import clientbench.harness.probe.CpuPerRequest;
import clientbench.harness.record.JsonFiles;
import clientbench.plan.Schedule;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The terminal's line for one run of a comparison, at most {@value #WIDTH} characters: which run (its number, round,
 * shape and client, printed before it starts) and, once it ends, its main figures as its trial record holds them.
 * The figures are a sign of progress; the verdict at the end is what to read.
 */
public final class ProgressLine {

    public static final int WIDTH = 120;

    private ProgressLine() {
    }

    /** "[ 12/117] r2/3 rate-4000        jetty-vt   ": what runs, before it does. */
    static String start(int n, int total, Schedule.Step step) {
        int digits = Integer.toString(total).length();
        return String.format(Locale.ROOT, "[%" + digits + "d/%d] r%d/%d %-16s %-10s ", n, total, step.round(),
                step.rounds(), step.shape().name(), step.client());
    }

    /** The end of the line: its figures (or why it failed) and the time left, cut to fit after {@code start}. */
    static String end(String start, String figures, String left) {
        String tail = " (" + left + " left)";
        String line = start + figures;
        int room = WIDTH - tail.length();
        return (line.length() > room ? line.substring(0, room - 3) + "..." : line) + tail;
    }

    /** The end of a run's line: its figures, or why it failed. */
    static String end(String start, Ran r, String left) throws IOException {
        return end(start, r.result() == null ? "FAILED: " + r.failure() : figures(r.files()), left);
    }

    /** The main figures of the trials among {@code files} (one per fork), from their records. */
    static String figures(Collection<Path> files) throws IOException {
        List<String> parts = new ArrayList<>();
        for (Path f : files) {
            if (f.getFileName().toString().endsWith(".trial.json")) {
                parts.add(figures(JsonFiles.MAPPER.readTree(f.toFile())));
            }
        }
        return String.join("; ", parts);
    }

    static String figures(JsonNode trial) {
        List<JsonNode> measured = new ArrayList<>();
        trial.path("iterations").forEach(it -> {
            if (it.path("measured").asBoolean()) {
                measured.add(it);
            }
        });
        if (measured.isEmpty()) {
            return "no measured window";
        }
        JsonNode last = measured.get(measured.size() - 1);
        if (last.has("knee")) {
            double high = last.path("knee.high").asDouble(Double.NaN);
            return String.format(Locale.ROOT, "knee %.0f req/s [%.0f, %s) %s", last.path("knee").asDouble(),
                    last.path("knee").asDouble(), Double.isNaN(high) ? "-" : String.format(Locale.ROOT, "%.0f", high),
                    last.path("knee.status").asText());
        }
        long sent = 0;
        long ok = 0;
        long cpuNanos = 0;
        double seconds = 0;
        Set<String> flags = new TreeSet<>();
        for (JsonNode it : measured) {
            sent += it.path("sent").asLong();
            ok += it.path("ok").asLong();
            cpuNanos += Math.max(0, CpuPerRequest.nanos(it));
            seconds += it.path("windowNanos").asLong() / 1e9;
            it.path("flags").forEach(x -> flags.add(x.asText().replace("flag.", "")));
        }
        JsonNode lat = last.has("latencyMicros") ? last.path("latencyMicros") : last.path("serviceMicros");
        return String.format(Locale.ROOT, "ok %.0f/s p99 %s cpu %s/req%s", seconds > 0 ? ok / seconds : 0,
                micros(lat.path("p99").asDouble(Double.NaN)), sent > 0 ? micros(cpuNanos / 1e3 / sent) : "-",
                flags.isEmpty() ? "" : " flags " + String.join(",", flags));
    }

    private static String micros(double us) {
        if (Double.isNaN(us)) {
            return "-";
        }
        return us >= 1000 ? String.format(Locale.ROOT, "%.1f ms", us / 1000) : String.format(Locale.ROOT, "%.0f us", us);
    }
}
