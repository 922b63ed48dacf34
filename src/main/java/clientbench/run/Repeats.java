package clientbench.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * A round the host slowed ({@link RoundChecks}) runs once more at the end, when the spell may have passed, as the
 * profile's time allows. The repeat stands in its place when not flagged, or less stolen; the other keeps its trials in
 * {@value #FOLDER}/, read by nothing, and env.json records both.
 */
final class Repeats {

    /** Where the round that does not stand keeps its trial and histogram files, inside the run folder. */
    static final String FOLDER = "superseded";
    /**
     * Seconds kept for the report after the repeats, within a profile's limit: the analysis renders it last, in a time
     * that grows with the run's trials, so the margin is wide.
     */
    static final long REPORT_SECONDS = 90;
    /** Without a limit, the repeats may take this share of the run's estimate. */
    static final double SHARE_WITHOUT_LIMIT = 0.10;

    private Repeats() {
    }

    /**
     * Estimated seconds the repeats may take: what is left of the profile's limit after {@code elapsed}, less the
     * report's time, divided by the run's pace so far (a host slow enough to flag rounds runs the repeats slow too);
     * without a limit, a tenth of the estimate.
     */
    static long budgetSeconds(long estimatedSeconds, Duration limit, Duration elapsed, long estimatedDone) {
        if (limit == null) {
            return Math.round(estimatedSeconds * SHARE_WITHOUT_LIMIT);
        }
        double pace = estimatedDone > 0 ? Math.max(1.0, elapsed.toMillis() / 1000.0 / estimatedDone) : 1.0;
        return Math.max(0, Math.round((limit.minus(elapsed).toSeconds() - REPORT_SECONDS) / pace));
    }

    /** Whether a repeat stands in place of the round it repeats: it is not flagged, or the host stole less of it. */
    static boolean stands(RoundChecks.Facts first, RoundChecks.Facts again) {
        return again.flags().isEmpty() || again.stealMedian() < first.stealMedian();
    }

    /** A round run again: the steps' outcomes and their files. */
    interface Rerun {
        List<Ran> run(String shape, int round) throws IOException, InterruptedException;
    }

    /** What happened to one flagged round, for env.json. */
    record Repeat(RoundChecks.Facts first, RoundChecks.Facts again, boolean stands, String why) {
    }

    /**
     * Runs the flagged rounds again, in the order they ran, while their estimates fit in {@code budgetSeconds};
     * {@code ran} is updated in place where a repeat stands. Says each on {@code out}.
     */
    static List<Repeat> run(List<RoundChecks.Facts> flagged, List<RoundChecks.Facts> all, List<Ran> ran,
                            long budgetSeconds, Rerun rerun, Path dir, PrintStream out)
            throws IOException, InterruptedException {
        List<Repeat> done = new ArrayList<>();
        long spent = 0;
        for (RoundChecks.Facts f : flagged) {
            List<Ran> first = ran.stream()
                    .filter(r -> r.step().shape().name().equals(f.shape()) && r.step().round() == f.round()).toList();
            long cost = first.stream().mapToLong(r -> r.step().shape().estimatedSeconds()).sum();
            String what = String.format(Locale.ROOT, "%s round %d (%s)", f.shape(), f.round(), String.join(", ", f.flags()));
            if (spent + cost > budgetSeconds) {
                done.add(new Repeat(f, null, false, "not run again: the profile's time was spent"));
                out.println("bench: " + what + " not run again: no time left in the profile's limit");
                continue;
            }
            spent += cost;
            out.println("bench: " + what + ": running it again now");
            List<Ran> again = rerun.run(f.shape(), f.round());
            List<RoundChecks.Facts> others = new ArrayList<>(all);
            others.remove(f);
            RoundChecks.Facts read = RoundChecks.read(f.shape(), f.round(), files(again));
            others.add(read);
            RoundChecks.Facts judged = RoundChecks.flag(read, others);
            boolean stands = stands(f, judged) && again.stream().allMatch(r -> r.result() != null);
            supersede(dir, files(stands ? first : again));
            if (stands) {
                int at = ran.indexOf(first.get(0));
                ran.removeAll(first);
                ran.addAll(at, again);
            }
            done.add(new Repeat(f, judged, stands, stands ? "the repeat stands" : "the first run stands"));
            out.println("bench: " + what + " again: " + (judged.flags().isEmpty() ? "not flagged"
                    : String.join(", ", judged.flags())) + "; " + (stands ? "the repeat stands" : "the first run stands"));
        }
        return done;
    }

    static List<Path> files(Collection<Ran> ran) {
        return ran.stream().flatMap(r -> r.files().stream()).toList();
    }

    /** Moves {@code files} into the run folder's {@value #FOLDER}/, names kept: recorded, no longer read. */
    static void supersede(Path dir, Collection<Path> files) throws IOException {
        Path to = Files.createDirectories(dir.resolve(FOLDER));
        for (Path f : files) {
            if (Files.exists(f)) {
                Files.move(f, to.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}
