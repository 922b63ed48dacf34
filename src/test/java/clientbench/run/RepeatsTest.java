package clientbench.run;

import clientbench.plan.Schedule;
import clientbench.plan.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.TimeValue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static clientbench.run.RoundChecksTest.trial;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A flagged round runs again while the budget allows; the repeat takes the first's place only when it is not flagged
 * or the host stole less of it, and whichever does not stand keeps its files in superseded/. The reruns here are
 * fakes that write trial records of a known steal, so which stands follows from the steal written.
 */
class RepeatsTest {

    /** Steal 0.30 (flagged), 0.20 (flagged, less stolen), 0.40 (flagged, more stolen), none. */
    static final double STOLEN = 0.30;
    static final double LESS = 0.20;
    static final double MORE = 0.40;
    static final double NONE = 0.0;

    @TempDir
    Path dir;

    final Shape shape = Shape.open("rate-4000").rate(4_000).warmup(1, 1).measure(2, 1).rounds(2).build();
    final Shape other = Shape.closed("closed-x16", 16).warmup(1, 1).measure(2, 1).build();
    final ByteArrayOutputStream said = new ByteArrayOutputStream();
    final PrintStream out = new PrintStream(said, true, StandardCharsets.UTF_8);
    int reruns;

    /** A step of {@code s} for jdk in {@code round} as it ran: its record of {@code steal}, and a result. */
    Ran ran(Shape s, int round, String tag, double steal, boolean result) throws IOException {
        Path record = trial(dir, s.name() + "-jdk-r" + round + "-" + tag, "jdk",
                new RoundChecksTest.Window(true, steal, 1_000_000, 1_000));
        return new Ran(new Schedule.Step(s, "jdk", round, s.rounds()), result ? RESULT : null,
                List.of(record), result ? "" : "the fork exited with 1");
    }

    RoundChecks.Facts judged(Ran r, List<RoundChecks.Facts> all) throws IOException {
        RoundChecks.Facts f = RoundChecks.read(r.step().shape().name(), r.step().round(), r.files());
        return RoundChecks.flag(f, all.isEmpty() ? List.of(f) : all);
    }

    /** Runs Repeats over {@code ran}, whose round 1 of rate-4000 is flagged, with a rerun of {@code again}'s steal. */
    List<Repeats.Repeat> repeat(List<Ran> ran, double again, boolean result, long budget) throws IOException, InterruptedException {
        RoundChecks.Facts first = judged(ran.get(0), List.of());
        assertEquals(List.of("steal"), first.flags(), "the round to repeat is flagged");
        List<RoundChecks.Facts> all = new ArrayList<>();
        for (Ran r : ran) {
            all.add(judged(r, List.of()));
        }
        return Repeats.run(List.of(first), all, ran, budget, (s, round) -> {
            reruns++;
            assertEquals(first.shape(), s);
            assertEquals(first.round(), round);
            return List.of(ran(shape, round, "again", again, result));
        }, dir, out);
    }

    @Test
    void aRepeatThatIsNotFlaggedTakesTheFirstsPlaceAndTheFirstsFilesAreSuperseded() throws Exception {
        List<Ran> ran = new ArrayList<>(List.of(ran(shape, 1, "first", STOLEN, true),
                ran(shape, 2, "first", NONE, true), ran(other, 1, "first", NONE, true)));
        Ran first = ran.get(0);
        List<Repeats.Repeat> done = repeat(ran, NONE, true, 1_000);

        assertEquals(1, reruns);
        assertEquals(1, done.size());
        assertTrue(done.get(0).stands(), done.toString());
        assertEquals("the repeat stands", done.get(0).why());
        assertEquals(List.of(), done.get(0).again().flags());
        assertEquals(3, ran.size(), "one step in place of one");
        assertTrue(ran.get(0).files().get(0).getFileName().toString().contains("-again"), "in the first's place: " + ran);
        assertFalse(ran.contains(first));
        Path moved = dir.resolve(Repeats.FOLDER).resolve(first.files().get(0).getFileName());
        assertTrue(Files.isRegularFile(moved) && Files.notExists(first.files().get(0)), "the first's record superseded");
        assertTrue(Files.isRegularFile(ran.get(0).files().get(0)), "the repeat's record stays where it is read");
        assertTrue(said.toString(StandardCharsets.UTF_8).contains("rate-4000 round 1 (steal) again: not flagged; the repeat stands"),
                said.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aRepeatFlaggedAndLessStolenStillStands() throws Exception {
        List<Ran> ran = new ArrayList<>(List.of(ran(shape, 1, "first", STOLEN, true)));
        List<Repeats.Repeat> done = repeat(ran, LESS, true, 1_000);
        assertTrue(done.get(0).stands());
        assertEquals(List.of("steal"), done.get(0).again().flags());
    }

    @Test
    void aRepeatMoreStolenLeavesTheFirstAndIsItselfSuperseded() throws Exception {
        List<Ran> ran = new ArrayList<>(List.of(ran(shape, 1, "first", STOLEN, true)));
        Ran first = ran.get(0);
        List<Repeats.Repeat> done = repeat(ran, MORE, true, 1_000);
        assertFalse(done.get(0).stands());
        assertEquals("the first run stands", done.get(0).why());
        assertEquals(List.of(first), ran, "the first kept");
        assertTrue(Files.isRegularFile(first.files().get(0)), "the first's record stays where it is read");
        try (var s = Files.list(dir.resolve(Repeats.FOLDER))) {
            List<String> superseded = s.map(p -> p.getFileName().toString()).toList();
            assertEquals(1, superseded.size(), superseded.toString());
            assertTrue(superseded.get(0).contains("-again"), superseded.toString());
        }
    }

    @Test
    void aRepeatWhoseForkFailedNeverStands() throws Exception {
        List<Ran> ran = new ArrayList<>(List.of(ran(shape, 1, "first", STOLEN, true)));
        Ran first = ran.get(0);
        List<Repeats.Repeat> done = repeat(ran, NONE, false, 1_000);
        assertFalse(done.get(0).stands(), "not flagged, but without a result");
        assertSame(first, ran.get(0));
    }

    @Test
    void aRoundThatDoesNotFitTheBudgetIsNotRunAgainAndSaysSo() throws Exception {
        List<Ran> ran = new ArrayList<>(List.of(ran(shape, 1, "first", STOLEN, true)));
        long cost = shape.estimatedSeconds();
        List<Repeats.Repeat> done = repeat(ran, NONE, true, cost - 1);
        assertEquals(0, reruns, "never started");
        assertFalse(done.get(0).stands());
        assertNull(done.get(0).again());
        assertEquals("not run again: the profile's time was spent", done.get(0).why());
        assertTrue(Files.notExists(dir.resolve(Repeats.FOLDER)), "nothing superseded");
        assertTrue(said.toString(StandardCharsets.UTF_8).contains("not run again: no time left in the profile's limit"));
    }

    @Test
    void theBudgetIsWhatTheLimitLeavesAfterTheReportAtTheRunsPace() {
        // 10 min limit, 5 min gone for 200 s of estimates: pace 1.5; (600 - 300 - 90) s / 1.5 = 140 s.
        assertEquals(140, Repeats.budgetSeconds(999, Duration.ofMinutes(10), Duration.ofMinutes(5), 200));
        // A run ahead of its estimates is not credited: pace 1; 600 - 100 - 90 = 410 s.
        assertEquals(410, Repeats.budgetSeconds(999, Duration.ofMinutes(10), Duration.ofSeconds(100), 400));
        assertEquals(0, Repeats.budgetSeconds(999, Duration.ofMinutes(10), Duration.ofMinutes(9), 500), "never below 0");
        assertEquals(100, Repeats.budgetSeconds(1_000, null, Duration.ofHours(2), 10), "no limit: a tenth of the estimate");
    }

    @Test
    void theLimitIsTheUsersWaitTheBuildIncluded() {
        Instant run = Instant.parse("2026-11-27T10:02:30Z");
        String saved = System.getProperty(ComparisonRun.COMMAND_STARTED);
        try {
            System.clearProperty(ComparisonRun.COMMAND_STARTED);
            assertEquals(Duration.ofMinutes(10), ComparisonRun.limitLeft(Duration.ofMinutes(10), run), "no launcher: all of it");
            // The launcher began 2.5 minutes before the run (its build): 7.5 minutes are left for the run.
            System.setProperty(ComparisonRun.COMMAND_STARTED, Long.toString(run.minusSeconds(150).toEpochMilli()));
            assertEquals(Duration.ofSeconds(450), ComparisonRun.limitLeft(Duration.ofMinutes(10), run));
            assertNull(ComparisonRun.limitLeft(null, run), "no limit stays none");
        } finally {
            if (saved == null) {
                System.clearProperty(ComparisonRun.COMMAND_STARTED);
            } else {
                System.setProperty(ComparisonRun.COMMAND_STARTED, saved);
            }
        }
    }

    /** A result that is there: Repeats reads only whether a step has one. */
    static final RunResult RESULT = new RunResult(new BenchmarkParams("b", "g", false, 1, new int[] {1}, List.of(), 1, 0,
            new IterationParams(IterationType.WARMUP, 1, TimeValue.seconds(1), 1),
            new IterationParams(IterationType.MEASUREMENT, 1, TimeValue.seconds(1), 1), Mode.Throughput,
            new WorkloadParams(), TimeUnit.SECONDS, 1, "java", List.of(), "25", "vm", "1", "1.37", TimeValue.minutes(1)),
            List.of());
}
