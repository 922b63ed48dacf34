package clientbench.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/**
 * A capacity search the host's steal stopped is run once more at the end of the comparison, when the spell has
 * likely passed. On this project's shared 2-core VMs the hypervisor takes the CPU back in spells of tens of
 * minutes (steal of 20-55% of every window in one, under 1% in the next quarter hour); a search that probes
 * through one misses at a fraction of the client's rate and its miss stands, flagged {@code steal}: in four of five
 * complete standard runs on one VM, 3-13 of the 35 capacity forks ended so (knees of 0-1,000 req/s where other runs
 * found 15,000-20,000), and the report could only set them aside. Capacity shapes run first, so by the end of the
 * run 40-50 minutes have passed since their first forks; a fork run apart at the run's end ({@link Profile#schedule})
 * is run again minutes after it ran, and a first fork's retry that stands may run close to that client's second.
 *
 * <p>The retry reruns what ran together: the whole (shape, client), all its forks, or the one fork of a search
 * whose forks run apart ({@link Profile#schedule}); it stands in place of the first attempt only when
 * fewer of its forks were stopped by steal; the attempt that does not stand keeps its trials in
 * {@value #FOLDER}/ (out of what the summary and the report read) and both are recorded in env.json's
 * {@code retried}. Retries are bounded: a tenth of the run's estimated time, and never past the profile's limit
 * (standard's hour, {@link #budget}), searches taken in the order they ran.
 */
final class Retries {

    /** Where the attempt that does not stand keeps its trial and histogram files, inside the run folder. */
    static final String FOLDER = "superseded";
    /** The flag, at a fork's lowest failing rate, that makes a search worth running again: the host's, not the client's. */
    static final String FLAG = "steal";
    /** The share of the run's estimated time the retries may take. */
    static final double BUDGET_SHARE = 0.10;
    /** Seconds kept for the report after the retries, within a profile's limit: rendering and deciding took 30 s for run M. */
    static final long REPORT_SECONDS = 90;

    /**
     * What the retries may take: {@code seconds}, and in words why that much.
     *
     * @param words for the terminal and env.json: "a tenth of the run's estimate", say
     */
    record Budget(long seconds, String words) {
    }

    /**
     * In estimated seconds (what {@link Attempt#estimatedSeconds} charges): a tenth of the run's estimate, and no
     * more than keeps the run within its profile's limit ({@link Profile#timeLimit}, null: none) with {@link
     * #REPORT_SECONDS} left for the report, {@code elapsed} being the time the run has taken so far for
     * {@code estimatedDone} estimated seconds of it: the wall-clock time left is divided by that pace, as a host slow
     * enough to stop searches runs the retries slow too. A run the host slowed can so have no time for retries at
     * all, and one of every client on pace little (standard's estimate is close to its hour): standard promises an
     * hour, and a retry that breaks it is a cost the user did not choose.
     */
    static Budget budget(long estimatedSeconds, Duration limit, Duration elapsed, long estimatedDone) {
        long share = Math.round(estimatedSeconds * BUDGET_SHARE);
        if (limit == null) {
            return new Budget(share, "a tenth of the run's estimate");
        }
        double pace = estimatedDone > 0 ? Math.max(1.0, elapsed.toMillis() / 1000.0 / estimatedDone) : 1.0;
        long left = Math.max(0, Math.round((limit.minus(elapsed).toSeconds() - REPORT_SECONDS) / pace));
        return left < share
                ? new Budget(left, String.format(Locale.ROOT, "what is left of the profile's %s after %s, at this run's"
                        + " pace (%.2fx its estimate), the report's %d s kept aside", TimeLeft.human(limit),
                        TimeLeft.human(elapsed), pace, REPORT_SECONDS))
                : new Budget(share, "a tenth of the run's estimate");
    }

    private Retries() {
    }

    /** The run folder's trial records and histograms ({@code *.trial.json}, {@code *.hlog}), at its top level. */
    static Set<Path> trialFiles(Path dir) throws IOException {
        Set<Path> out = new TreeSet<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.{trial.json,hlog}")) {
            files.forEach(out::add);
        }
        return out;
    }

    /** The files one JMH run added: in {@code after}, not in {@code before}. */
    static List<Path> added(Set<Path> before, Set<Path> after) {
        List<Path> out = new ArrayList<>(after);
        out.removeAll(before);
        return out;
    }

    /** How many forks' searches among {@code files} a miss flagged {@value #FLAG} stopped (0 for other benchmarks). */
    static int stolenForks(Collection<Path> files) throws IOException {
        return stolenForks(Capacity.read(files));
    }

    private static int stolenForks(List<Capacity.Result> searches) {
        return searches.stream().mapToInt(r -> r.forksFlaggedAtBound(FLAG)).sum();
    }

    /**
     * The run of (shape, client) that wrote {@code files}, to be run again when steal stopped any of its forks'
     * searches ({@link #stolenForks}); null when it stopped none.
     */
    static <T> Attempt<T> ifStolen(Profile.Step step, List<T> results, List<Path> files) throws IOException {
        List<Capacity.Result> searches = Capacity.read(files);
        int stolen = stolenForks(searches);
        return stolen == 0 ? null : new Attempt<>(step, results, files, stolen,
                searches.stream().mapToInt(r -> r.forks().size()).sum());
    }

    /** Whether the retry stands in place of the first attempt: only when steal stopped fewer of its forks. */
    static boolean retryStands(int stolenFirst, int stolenRetry) {
        return stolenRetry < stolenFirst;
    }

    /** The first of {@code wanted}, in order, whose estimated seconds fit in {@code budgetSeconds} together. */
    static <T> List<T> affordable(List<T> wanted, ToLongFunction<T> seconds, long budgetSeconds) {
        List<T> out = new ArrayList<>();
        long spent = 0;
        for (T t : wanted) {
            long s = seconds.applyAsLong(t);
            if (spent + s <= budgetSeconds) {
                out.add(t);
                spent += s;
            }
        }
        return out;
    }

    /**
     * A capacity run whose forks' searches the host's steal stopped.
     *
     * @param results its results (JMH's RunResults in a comparison)
     * @param files the trial and histogram files it wrote
     * @param stolen how many of its forks' searches steal stopped ({@link #stolenForks})
     * @param forks how many forks' searches it ran
     */
    record Attempt<T>(Profile.Step step, List<T> results, List<Path> files, int stolen, int forks) {
        Profile.Shape shape() {
            return step.shape();
        }

        String client() {
            return step.client();
        }

        long estimatedSeconds() {
            return step.shape().estimatedSeconds();
        }

        /** "capacity-http1/apache", and which fork it was of a search whose forks run apart: "(fork 1 of 2)". */
        String what() {
            return step.shape().name() + "/" + step.client() + (step.fork().isEmpty() ? "" : " (" + step.fork() + ")");
        }
    }

    /** A run again: its results, or none and why it failed. */
    record Outcome<T>(List<T> results, String failure) {
    }

    /** Runs an attempt's (shape, client) again, its files written into the run folder as the first run's were. */
    interface Rerun<T> {
        Outcome<T> run(Attempt<T> first) throws IOException;
    }

    /**
     * Runs the searches the host's steal stopped once more, in the order they ran, as many as the budget's seconds
     * of their estimates allow; where a retry stands ({@link #retryStands}), its results take the first run's place
     * in {@code all} and the first run's files go to {@value #FOLDER}/, else the retry's do. Says each on {@code out}
     * ({@code line}: a result's summary line), and for a fork run apart whose retry stands the search's knee over its
     * forks again ({@link Capacity#overForks}: the line printed after its last fork no longer holds), and returns
     * env.json's {@code retried}: per search, what was run again and which run stands.
     */
    static <T> List<String> retry(List<Attempt<T>> stolen, Budget budget, List<T> all, Rerun<T> rerun,
                                  Function<T, String> line, Path dir, PrintStream out) throws IOException {
        List<String> record = new ArrayList<>();
        if (stolen.isEmpty()) {
            return record;
        }
        List<Attempt<T>> chosen = affordable(stolen, Attempt::estimatedSeconds, budget.seconds());
        out.printf("bench: the host's steal stopped %d capacity search%s; %s (the retries may take %s, %s)%n",
                stolen.size(), stolen.size() == 1 ? "" : "es", chosen.isEmpty() ? "none fits in the time for retries"
                : "running " + chosen.size() + " again now, when the spell may have passed",
                TimeLeft.human(Duration.ofSeconds(budget.seconds())), budget.words());
        int i = 0;
        for (Attempt<T> a : stolen) {
            String what = String.format(Locale.ROOT, "%s: the host's steal stopped %d of %d forks' searches",
                    a.what(), a.stolen(), a.forks());
            if (!chosen.contains(a)) {
                record.add(what + "; not run again (the retries' time, " + budget.words() + ", was spent)");
                continue;
            }
            out.printf("[retry %d/%d] %-16s %-10s %s", ++i, chosen.size(), a.shape().name(), a.client(), a.step().progress());
            out.flush();
            Set<Path> before = trialFiles(dir);
            Outcome<T> o = rerun.run(a);
            List<Path> files = added(before, trialFiles(dir));
            if (o.results().isEmpty()) {
                supersede(dir, files);
                out.println(" FAILED: " + o.failure() + "; the first run stands");
                record.add(what + "; run again at the end, which failed (" + o.failure() + "): the first run stands");
                continue;
            }
            int again = stolenForks(files);
            boolean stands = retryStands(a.stolen(), again);
            supersede(dir, stands ? a.files() : files);
            if (stands) {
                int at = all.indexOf(a.results().get(0));
                all.removeAll(a.results());
                all.addAll(at < 0 ? all.size() : at, o.results());
            }
            out.println(" " + o.results().stream().map(line).collect(Collectors.joining("; "))
                    + String.format(Locale.ROOT, "  (steal stopped %d of its forks' searches: %s)", again,
                    stands ? "this run stands" : "the first run stands"));
            if (stands && a.step().passes() > 1) {
                // the knee over the forks was printed after the last of them ran, before this retry replaced one
                out.println("       now " + Capacity.overForks(Capacity.read(dir), a.shape().name(), a.client()));
            }
            record.add(String.format(Locale.ROOT, "%s; run again at the end, where steal stopped %d: the %s run stands,"
                    + " the other's trials are in %s/", what, again, stands ? "second" : "first", FOLDER));
        }
        return record;
    }

    /** Moves {@code files} into the run folder's {@value #FOLDER}/, names kept: recorded, no longer read. */
    static void supersede(Path dir, Collection<Path> files) throws IOException {
        Path to = Files.createDirectories(dir.resolve(FOLDER));
        for (Path f : files) {
            Files.move(f, to.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
