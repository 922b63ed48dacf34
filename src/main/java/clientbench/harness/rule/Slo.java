package clientbench.harness.rule;

import clientbench.harness.record.IterationSnapshot;
import clientbench.harness.record.Thresholds;

import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a client must do at an offered rate for it to count as sustained, the one definition everything uses:
 * {@link #okShare} of scheduled requests ok, p99 within {@link #latencyP99Millis} of the server's delay, no flag. A
 * rate kept despite {@link #LIMITS} stays kept, as they only make it harder; other flagged figures count neither way.
 */
public record Slo(double okShare, double latencyP99Millis) {

    /** 99.9% ok and p99 within 10 ms of the server's delay: a loopback stub answers in well under 1 ms. */
    public static final Slo DEFAULT = new Slo(Thresholds.SLO_OK_SHARE, Thresholds.SLO_LATENCY_P99_MILLIS);
    /** How {@link #missedBy} begins a miss that a validity flag makes untrustworthy. */
    public static final String FLAGGED = "flagged:";
    /** The flags that cannot undo a kept rate: each says the harness, not the client, may have been the limit. */
    public static final Set<Flag> LIMITS = Collections.unmodifiableSet(EnumSet.of(Flag.GENERATOR, Flag.LAG, Flag.STUB,
            Flag.STEAL));

    public Slo {
        if (!(okShare > 0 && okShare <= 1)) {
            throw new IllegalArgumentException("okShare must be in (0, 1], was " + okShare);
        }
        if (!(latencyP99Millis > 0)) {
            throw new IllegalArgumentException("latencyP99Millis must be > 0, was " + latencyP99Millis);
        }
    }

    /** Saturation's signs on a 2-core machine: a miss with no other flag is the client's limit ({@link Judgment#clients}). */
    public static final Set<Flag> SATURATION = Collections.unmodifiableSet(EnumSet.of(Flag.GENERATOR, Flag.LAG));

    /**
     * One judgment against the SLO, as data for the records: {@code missed}, the bounds broken in the order checked
     * ({@code okShare}, {@code latencyP99Millis}, or {@code scheduled} when nothing was); {@code words}:
     * {@link #missedBy}'s text, null when kept.
     */
    public record Judgment(List<String> missed, List<Flag> flags, String words) {

        /** The rate was kept: no bound broken and no flag but the harness's limits ({@link #LIMITS}). */
        public boolean kept() {
            return words == null;
        }

        /**
         * A miss that counts against the client: a bound broken with no flag but saturation's (the client JVM's CPUs
         * full, the pacer late: the client's own limit, as the harness alone keeps every rate of the ladder).
         */
        public boolean clients() {
            return !kept() && !missed.isEmpty() && SATURATION.containsAll(flags);
        }

        /** For a record: kept, the bounds missed, the flags (their words), and whether the miss is the client's. */
        public java.util.Map<String, Object> toJson() {
            java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("kept", kept());
            m.put("missed", missed);
            m.put("flags", flags.stream().map(Flag::word).toList());
            m.put("clients", clients());
            return m;
        }
    }

    /** The figures judged: what was missed and flagged, and the words of {@link #missedBy}. */
    public Judgment judge(double scheduled, double ok, double latencyP99Micros, long serverDelayMillis,
                          Collection<Flag> flags) {
        EnumSet<Flag> raised = EnumSet.noneOf(Flag.class);
        raised.addAll(flags);
        return new Judgment(missedBounds(scheduled, ok, latencyP99Micros, serverDelayMillis), List.copyOf(raised),
                missedBy(scheduled, ok, latencyP99Micros, serverDelayMillis, flags));
    }

    /** As {@link #judge(double, double, double, long, Collection)}, for one iteration and its flags. */
    public Judgment judge(IterationSnapshot s, long serverDelayMillis, Collection<Flag> flags) {
        double p99 = s.latency().getTotalCount() == 0 ? Double.NaN : s.latency().getValueAtPercentile(99);
        return judge(s.scheduled(), s.ok(), p99, serverDelayMillis, flags);
    }

    private List<String> missedBounds(double scheduled, double ok, double latencyP99Micros, long serverDelayMillis) {
        if (!(scheduled > 0)) {
            return List.of("scheduled");
        }
        List<String> out = new java.util.ArrayList<>();
        if (ok < okShare * scheduled) {
            out.add("okShare");
        }
        if (!(latencyP99Micros / 1000.0 - serverDelayMillis <= latencyP99Millis)) {
            out.add("latencyP99Millis");
        }
        return List.copyOf(out);
    }

    /**
     * Null when the figures keep the SLO, else the first reason they do not, in words. {@code latencyP99Micros} runs
     * from the intended start, every outcome; {@code serverDelayMillis} is the stub's delay the shape asks for.
     */
    public String missedBy(double scheduled, double ok, double latencyP99Micros, long serverDelayMillis,
                           Collection<Flag> flags) {
        // A limit of the harness (CPUs full, pacer late, stub busy) does not undo a kept rate: it could only have
        // added latency or unsent requests, both in the figures, so a client that kept the SLO despite it keeps it
        // without. A miss with one is the harness's as much as the client's: flagged, never counted against the client.
        String words = String.join(", ", flags.stream().map(Flag::word).toList());
        if (!LIMITS.containsAll(flags)) {
            return FLAGGED + " " + words;
        }
        String miss = missedByFigures(scheduled, ok, latencyP99Micros, serverDelayMillis);
        return miss != null && !flags.isEmpty() ? FLAGGED + " " + words + " (" + miss + ")" : miss;
    }

    private String missedByFigures(double scheduled, double ok, double latencyP99Micros, long serverDelayMillis) {
        if (!(scheduled > 0)) {
            return "nothing scheduled";
        }
        if (ok < okShare * scheduled) {
            return String.format(Locale.ROOT, "ok %.2f%% of scheduled < %.1f%%", 100 * ok / scheduled, 100 * okShare);
        }
        double overMillis = latencyP99Micros / 1000.0 - serverDelayMillis;
        if (!(overMillis <= latencyP99Millis)) {
            return String.format(Locale.ROOT, "latency p99 %.1f ms > %s%.0f ms", latencyP99Micros / 1000.0,
                    serverDelayMillis > 0 ? serverDelayMillis + " + " : "", latencyP99Millis);
        }
        return null;
    }

    /** As {@link #missedBy(double, double, double, long, Collection)}, for one iteration and its flags. */
    public String missedBy(IterationSnapshot s, long serverDelayMillis, Collection<Flag> flags) {
        double p99 = s.latency().getTotalCount() == 0 ? Double.NaN : s.latency().getValueAtPercentile(99);
        return missedBy(s.scheduled(), s.ok(), p99, serverDelayMillis, flags);
    }

    /** For env.json and each trial's record: what "sustained" meant in this run. */
    public java.util.Map<String, Object> toJson() {
        return java.util.Map.of("okShare", okShare, "latencyP99Millis", latencyP99Millis,
                "flags", "a rate kept despite gen, lag, stub or steal (the harness or the host may have been the limit) counts as kept; "
                        + "a miss with any flag, or a samples flag, counts neither way",
                "latency", "p99 from the intended start, every outcome, beyond the server's delay");
    }
}
