package clientbench.cli;

import clientbench.harness.JsonFiles;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which capacity searches are run again at the end of a comparison, which run stands, and where the other's files
 * go ({@link Retries}); ComparisonRun wires them.
 */
class RetriesTest {

    private static final Retries.Budget TENTH_600 = new Retries.Budget(600, "a tenth of the run's estimate");

    @TempDir
    Path dir;

    @Test
    void theRetriesTakeATenthOfTheEstimateButNeverRunPastTheProfilesLimit() {
        java.time.Duration hour = java.time.Duration.ofMinutes(60);
        // 60 min estimated, no limit: 6 min.
        assertEquals(360, Retries.budget(3_600, null, java.time.Duration.ofMinutes(70), 3_600).seconds());
        // standard's hour, 50 min run for 50 min of estimate: 10 min left less the report's share, more than a tenth.
        Retries.Budget early = Retries.budget(3_600, hour, java.time.Duration.ofMinutes(50), 3_000);
        assertEquals(360, early.seconds());
        assertEquals("a tenth of the run's estimate", early.words());
        // 57 min run, on pace: 3 min left, the report's 90 s kept aside.
        Retries.Budget late = Retries.budget(3_600, hour, java.time.Duration.ofMinutes(57), 57 * 60);
        assertEquals(180 - Retries.REPORT_SECONDS, late.seconds());
        assertTrue(late.words().startsWith("what is left of the profile's 1h00m after 57m00s, at this run's pace (1.00x"),
                late.words());
        // 50 min run for 40 min of estimate (pace 1.25): 8.5 min left are 6.8 min of estimate, more than the tenth; at
        // 54 min (4.5 min left) they are 3.6 min of estimate: retries run as slow as the run.
        assertEquals(360, Retries.budget(3_600, hour, java.time.Duration.ofMinutes(50), 2_400).seconds());
        assertEquals(216, Retries.budget(3_600, hour, java.time.Duration.ofMinutes(54), 2_592).seconds());
        // Past the hour (the host slowed the run): none.
        assertEquals(0, Retries.budget(3_600, hour, java.time.Duration.ofMinutes(62), 3_000).seconds());
    }

    /**
     * A capacity fork's trial record as CapacityBenchmark writes it, reduced to what Capacity reads: its probes
     * (rate, pass, flags) in order, the last one carrying the search's knee and lowest failing rate (NaN: none).
     */
    private Path trial(String name, String client, double knee, double kneeHigh, Object[]... probes) throws IOException {
        ObjectNode t = JsonFiles.MAPPER.createObjectNode();
        t.put("benchmark", Capacity.BENCHMARK).put("shape", "capacity-http1").put("client", client);
        t.putObject("params").put("ceilingRate", "64000");
        ArrayNode its = t.putArray("iterations");
        its.addObject().put("measured", false).put("windowStartEpochMillis", 1);
        for (Object[] p : probes) {
            ObjectNode it = its.addObject().put("measured", true).put("probe.rate", (double) p[0])
                    .put("probe.pass", (boolean) p[1] ? 1 : 0).put("probe.why", (boolean) p[1] ? "" : "flagged: ...");
            ArrayNode flags = it.putArray("flags");
            for (int i = 2; i < p.length; i++) {
                flags.add((String) p[i]);
            }
        }
        ObjectNode last = (ObjectNode) its.get(its.size() - 1);
        last.put("knee", knee).put("knee.converged", 0).put("knee.search", "");
        if (Double.isNaN(kneeHigh)) {
            last.putNull("knee.high");
        } else {
            last.put("knee.high", kneeHigh);
        }
        Path f = dir.resolve(name + ".trial.json");
        JsonFiles.MAPPER.writeValue(f.toFile(), t);
        Files.writeString(dir.resolve(name + ".hlog"), "#histograms\n");
        return f;
    }

    @Test
    void stealAtAForksBoundCountsThatFork() throws IOException {
        Path stolen = trial("a-1", "apache", 4000, 8000, new Object[] {4000.0, true},
                new Object[] {8000.0, false, "flag.lag", "flag.steal"}, new Object[] {8000.0, false, "flag.lag", "flag.steal"});
        Path saturated = trial("a-2", "apache", 19027, 20749, new Object[] {19027.0, true},
                new Object[] {20749.0, false, "flag.generator", "flag.lag"},
                new Object[] {20749.0, false, "flag.lag"});
        // steal on a pass, or on a miss below a rate that later passed, stopped nothing
        Path passedUnderSteal = trial("b-1", "jetty", 16000, 22627, new Object[] {16000.0, true, "flag.steal"},
                new Object[] {22627.0, false, "flag.generator"}, new Object[] {22627.0, false, "flag.lag"});
        assertEquals(1, Retries.stolenForks(List.of(stolen, saturated)));
        assertEquals(0, Retries.stolenForks(List.of(saturated, passedUnderSteal)));
        assertEquals(0, Retries.stolenForks(List.of(dir.resolve("a-1.hlog"))), "histograms are not trials");
    }

    @Test
    void aRunThatStealStoppedNowhereIsNotRunAgain() throws IOException {
        Path saturated = trial("a-2", "apache", 19027, 20749, new Object[] {19027.0, true}, SATURATED_MISS, SATURATED_MISS);
        assertEquals(null, Retries.ifStolen(new Profile.Step(new Profile.Shape("capacity-http1", Capacity.BENCHMARK,
                java.util.Map.of(), new Profile.Timings(1, 0, 1, 1, 1), true), "apache", 1, 1), List.of("apache"),
                List.of(saturated)));
    }

    @Test
    void aForkRunApartIsNamedWithWhichForkItWas() throws IOException {
        Path stolen = trial("apart", "apache", 4000, 8000, new Object[] {4000.0, true}, STOLEN_MISS, STOLEN_MISS);
        Profile.Shape oneFork = new Profile.Shape("capacity-http1", Capacity.BENCHMARK, java.util.Map.of(),
                new Profile.Timings(1, 2, 2, 14, 2), true);
        Retries.Attempt<String> a = Retries.ifStolen(new Profile.Step(oneFork, "apache", 2, 2), List.of("apache"), List.of(stolen));
        assertEquals("capacity-http1/apache (fork 2 of 2)", a.what());
        assertEquals(44, a.estimatedSeconds(), "one fork's time, not the search's");
        List<String> record = Retries.retry(List.of(a), new Retries.Budget(0, "none"), new java.util.ArrayList<>(List.of("apache")),
                x -> new Retries.Outcome<>(List.of(), "never"), r -> r, dir, new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
        assertEquals(List.of("capacity-http1/apache (fork 2 of 2): the host's steal stopped 1 of 1 forks' searches; not run"
                + " again (the retries' time, none, was spent)"), record);
    }

    @Test
    void theRetryStandsOnlyWhereStealStoppedFewerOfItsForks() {
        assertTrue(Retries.retryStands(1, 0));
        assertTrue(Retries.retryStands(2, 1));
        assertFalse(Retries.retryStands(1, 1), "the spell held: the first run stands");
        assertFalse(Retries.retryStands(1, 2));
    }

    @Test
    void retriesFitInTheirBudgetInTheOrderTheSearchesRan() {
        List<String> wanted = List.of("http1/a 88 s", "h2/b 44 s", "http1/c 88 s", "h2/d 44 s");
        List<Long> seconds = List.of(88L, 44L, 88L, 44L);
        assertEquals(List.of("http1/a 88 s", "h2/b 44 s", "h2/d 44 s"),
                Retries.affordable(wanted, w -> seconds.get(wanted.indexOf(w)), 180));
        assertEquals(List.of(), Retries.affordable(wanted, w -> seconds.get(wanted.indexOf(w)), 40));
    }

    @Test
    void theRunThatDoesNotStandMovesAsideAndIsNoLongerRead() throws IOException {
        trial("a-1", "apache", 4000, 8000, new Object[] {8000.0, false, "flag.steal"}, new Object[] {8000.0, false, "flag.steal"});
        Set<Path> before = Retries.trialFiles(dir);
        assertEquals(2, before.size(), before.toString());
        trial("a-2", "apache", 19027, 20749, new Object[] {20749.0, false, "flag.lag"}, new Object[] {20749.0, false, "flag.lag"});
        Files.writeString(dir.resolve("jmh.log"), "not a trial");
        List<Path> added = Retries.added(before, Retries.trialFiles(dir));
        assertEquals(Set.of("a-2.trial.json", "a-2.hlog"), Set.copyOf(added.stream().map(p -> p.getFileName().toString()).toList()));

        Retries.supersede(dir, before);
        assertEquals(Set.copyOf(added), Retries.trialFiles(dir), "what the summary and the report read");
        List<Capacity.Result> read = Capacity.read(dir);
        assertEquals(1, read.size());
        assertEquals(List.of(19027.0), read.get(0).forks().stream().map(Capacity.Fork::knee).toList());
        assertTrue(Files.isRegularFile(dir.resolve(Retries.FOLDER).resolve("a-1.trial.json")), "kept for the record");
        assertTrue(Files.isRegularFile(dir.resolve(Retries.FOLDER).resolve("a-1.hlog")));
        assertTrue(Files.isRegularFile(dir.resolve("jmh.log")));
    }

    private static final Object[] STOLEN_MISS = {8000.0, false, "flag.lag", "flag.steal"};
    private static final Object[] SATURATED_MISS = {20749.0, false, "flag.generator", "flag.lag"};

    /** apache's first run, one fork stopped by steal; {@code all} holds it between two other results. */
    private Retries.Attempt<String> stolenFirstRun() throws IOException {
        Set<Path> before = Retries.trialFiles(dir);
        trial("first", "apache", 4000, 8000, new Object[] {4000.0, true}, STOLEN_MISS, STOLEN_MISS);
        List<Path> files = Retries.added(before, Retries.trialFiles(dir));
        // standard's capacity timings: 2 forks x (2 x 2 s warm-up + 14 x 2 s probes + 4 s start + 8 s drains) = 88 s
        Profile.Shape shape = new Profile.Shape("capacity-http1", Capacity.BENCHMARK, java.util.Map.of(),
                new Profile.Timings(2, 2, 2, 14, 2), true);
        Retries.Attempt<String> a = Retries.ifStolen(new Profile.Step(shape, "apache", 1, 1), List.of("apache first"), files);
        assertEquals(1, a.stolen());
        assertEquals(1, a.forks());
        assertEquals(88, a.estimatedSeconds());
        return a;
    }

    private static String text(java.io.ByteArrayOutputStream b) {
        return b.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void aRetryWithLessStealTakesTheFirstRunsPlaceAndItsFiles() throws IOException {
        Retries.Attempt<String> first = stolenFirstRun();
        List<String> all = new java.util.ArrayList<>(List.of("ahc", "apache first", "jetty"));
        var out = new java.io.ByteArrayOutputStream();
        List<String> record = Retries.retry(List.of(first), TENTH_600, all, a -> {
            trial("second", "apache", 19027, 20749, new Object[] {19027.0, true}, SATURATED_MISS, SATURATED_MISS);
            return new Retries.Outcome<>(List.of("apache second"), "");
        }, r -> "knee of " + r, dir, new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));

        assertEquals(List.of("ahc", "apache second", "jetty"), all, "in the first run's place");
        assertEquals(List.of(19027.0), Capacity.read(dir).get(0).forks().stream().map(Capacity.Fork::knee).toList(),
                "the report and the summary read the second run only");
        assertTrue(Files.isRegularFile(dir.resolve(Retries.FOLDER).resolve("first.trial.json")));
        assertEquals(List.of("capacity-http1/apache: the host's steal stopped 1 of 1 forks' searches; run again at the end,"
                + " where steal stopped 0: the second run stands, the other's trials are in superseded/"), record);
        assertTrue(text(out).contains("stopped 1 capacity search; running 1 again now"), text(out));
        assertTrue(text(out).contains("[retry 1/1] capacity-http1   apache     "
                + " knee of apache second  (steal stopped 0 of its forks' searches: this run stands)"), text(out));
        assertFalse(text(out).contains("over its"), "its forks ran together: their knee is in the retry's own line");
    }

    @Test
    void aForkRunApartThatARetryReplacesHasItsKneeOverTheForksSaidAgain() throws IOException {
        Set<Path> before = Retries.trialFiles(dir);
        trial("fork1", "apache", 4000, 8000, new Object[] {4000.0, true}, STOLEN_MISS, STOLEN_MISS);
        List<Path> files = Retries.added(before, Retries.trialFiles(dir));
        trial("fork2", "apache", 18000, 19000, new Object[] {18000.0, true}, SATURATED_MISS, SATURATED_MISS);
        Profile.Shape oneFork = new Profile.Shape("capacity-http1", Capacity.BENCHMARK, java.util.Map.of(),
                new Profile.Timings(1, 2, 2, 14, 2), true);
        Retries.Attempt<String> first = Retries.ifStolen(new Profile.Step(oneFork, "apache", 1, 2), List.of("apache 1"), files);
        var out = new java.io.ByteArrayOutputStream();
        Retries.retry(List.of(first), TENTH_600, new java.util.ArrayList<>(List.of("apache 1", "apache 2")), a -> {
            trial("fork1again", "apache", 20000, 21000, new Object[] {20000.0, true}, SATURATED_MISS, SATURATED_MISS);
            return new Retries.Outcome<>(List.of("apache 1 again"), "");
        }, r -> r, dir, new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
        // the forks now in the folder: 18000 (fork 2) and 20000 (the retry of fork 1); 4000 went to superseded/
        assertTrue(text(out).contains("now capacity-http1 apache over its 2 forks: knee 19000 req/s (median; forks 18000-20000)"),
                text(out));
    }

    @Test
    void aRetryTheSpellAlsoStoppedLeavesTheFirstRunStanding() throws IOException {
        Retries.Attempt<String> first = stolenFirstRun();
        List<String> all = new java.util.ArrayList<>(List.of("apache first"));
        List<String> record = Retries.retry(List.of(first), TENTH_600, all, a -> {
            trial("second", "apache", 2000, 4000, new Object[] {2000.0, true}, new Object[] {4000.0, false, "flag.steal"},
                    new Object[] {4000.0, false, "flag.steal"});
            return new Retries.Outcome<>(List.of("apache second"), "");
        }, r -> r, dir, new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));

        assertEquals(List.of("apache first"), all);
        assertEquals(List.of(4000.0), Capacity.read(dir).get(0).forks().stream().map(Capacity.Fork::knee).toList());
        assertTrue(Files.isRegularFile(dir.resolve(Retries.FOLDER).resolve("second.trial.json")));
        assertTrue(record.get(0).endsWith("where steal stopped 1: the first run stands, the other's trials are in superseded/"),
                record.toString());
    }

    @Test
    void aFailedRetryOrOneOverTheBudgetLeavesTheFirstRunStanding() throws IOException {
        Retries.Attempt<String> first = stolenFirstRun();
        List<String> all = new java.util.ArrayList<>(List.of("apache first"));
        List<String> failed = Retries.retry(List.of(first), TENTH_600, all, a -> {
            Files.writeString(dir.resolve("half.hlog"), "#");
            return new Retries.Outcome<>(List.of(), "the fork exited with status 1");
        }, r -> r, dir, new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
        assertEquals(List.of("apache first"), all);
        assertFalse(Files.exists(dir.resolve("half.hlog")), "a failed retry's files go aside too");
        assertTrue(failed.get(0).endsWith("which failed (the fork exited with status 1): the first run stands"), failed.toString());

        int[] reruns = {0};
        List<String> over = Retries.retry(List.of(first), new Retries.Budget(60, "a tenth of the run's estimate"), all, a -> {
            reruns[0]++;
            return new Retries.Outcome<>(List.of("never"), "");
        }, r -> r, dir, new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
        assertEquals(0, reruns[0], "88 s do not fit in 60");
        assertTrue(over.get(0).endsWith("not run again (the retries' time, a tenth of the run's estimate, was spent)"), over.toString());
        assertEquals(List.of("apache first"), all);
    }
}
