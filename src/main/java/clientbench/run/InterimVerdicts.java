package clientbench.run;

import clientbench.harness.record.JsonFiles;
import clientbench.harness.record.Thresholds;
import clientbench.plan.Schedule;
import clientbench.plan.UntilDecided;
import clientbench.report.Analysis;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A run's interim verdicts (its looks) under {@code --until-decided}: after each round of the shape from the second, the
 * run's records so far go to the analysis ({@code look}), which says per figure how many pairs are apart, alike within
 * the margin, or open; once none is open the shape's later rounds are skipped. The pairs are judged only there; here
 * they are counted and kept.
 */
final class InterimVerdicts {
    private final UntilDecided until;
    private final PrintStream out;
    private final List<Map<String, Object>> taken = new ArrayList<>();
    private int stoppedAfter;

    InterimVerdicts(UntilDecided until, PrintStream out) {
        this.until = until;
        this.out = out;
    }

    /** env.json's untilDecided: the shape, its most rounds, the looks its confidence is split over, each look taken. */
    Map<String, Object> record() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("shape", until.shape());
        m.put("maxRounds", until.maxRounds());
        m.put("looks", until.looks());
        m.put("taken", taken);
        m.put("stoppedAfter", stoppedAfter == 0 ? null : stoppedAfter);
        return m;
    }

    /** Whether {@code step} is a round of the shape past the one after which it was decided. */
    boolean skips(Schedule.Step step) {
        return stoppedAfter > 0 && step.shape().name().equals(until.shape()) && step.round() > stoppedAfter;
    }

    /** Whether a look follows {@code steps[i]}: the last step of a round of the shape that a look follows, not yet decided. */
    boolean due(List<Schedule.Step> steps, int i) {
        Schedule.Step s = steps.get(i);
        if (stoppedAfter > 0 || !until.looksAfter(s)) {
            return false;
        }
        Schedule.Step next = i + 1 < steps.size() ? steps.get(i + 1) : null;
        return next == null || next.shape() != s.shape() || next.round() != s.round();
    }

    /** Writes the run's records so far into its folder, env.json's untilDecided as given. */
    interface Records {
        void write(Map<String, Object> untilDecided) throws IOException;
    }

    /** The look after {@code round}: the records written, the analysis asked; a look that fails leaves the shape going on. */
    void take(Path dir, int round, Records records) throws IOException, InterruptedException {
        records.write(record());
        judge(round, Analysis.look(dir, until.shape()));
    }

    /** The analysis's answer to the look after {@code round} (null: it failed), kept and said; decided: the shape stops. */
    void judge(int round, String said) {
        Map<String, Object> look = new LinkedHashMap<>();
        look.put("afterRound", round);
        String prefix = "[until decided] " + until.shape() + " after round " + round + " of " + until.maxRounds() + ": ";
        JsonNode answer = said == null ? null : answer(said);
        if (answer == null) {
            look.put("failed", "the analysis could not judge the rounds so far (on stderr)");
            taken.add(look);
            out.println(prefix + "not judged (the analysis failed); the rounds go on");
            return;
        }
        boolean decided = answer.path("decided").asBoolean(false);
        look.put("decided", decided);
        List<String> words = new ArrayList<>();
        Map<String, Object> figures = new LinkedHashMap<>();
        answer.path("figures").fields().forEachRemaining(f -> {
            Map<String, Integer> counts = new LinkedHashMap<>();
            for (String state : List.of("apart", "alike", "open")) {
                counts.put(state, f.getValue().path(state).size());
            }
            figures.put(f.getKey(), counts);
            words.add(f.getKey() + " " + counts.get("apart") + " apart, " + counts.get("alike") + " alike within x"
                    + String.format(Locale.ROOT, "%.2f", Thresholds.alikeWithin(f.getKey())) + ", " + counts.get("open")
                    + " open");
        });
        look.put("figures", figures);
        taken.add(look);
        if (decided) {
            stoppedAfter = round;
        }
        String skipped = round + 1 == until.maxRounds() ? "round " + until.maxRounds()
                : "rounds " + (round + 1) + "-" + until.maxRounds();
        out.println(prefix + String.join("; ", words) + (decided ? "; decided: " + skipped + " skipped" : "; going on"));
    }

    /** The look's JSON, or null (said on stderr) when the analysis printed something else. */
    private static JsonNode answer(String text) {
        try {
            return JsonFiles.MAPPER.readTree(text);
        } catch (IOException e) {
            System.err.println("bench: the analysis's look was not JSON: " + e.getMessage());
            return null;
        }
    }
}
