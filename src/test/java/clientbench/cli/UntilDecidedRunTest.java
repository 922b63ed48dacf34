package clientbench.cli;

import clientbench.cli.ComparisonRunTest.Ran;
import clientbench.harness.record.JsonFiles;
import clientbench.testkit.Prerequisites;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A run until decided, from real runs of the probe's comparison as {@code ./bench} starts one: a look that finds every
 * pair decided skips the shape's later rounds and no other shape's; one that finds a pair open goes on. No figure is
 * asserted: which way the look went is read from the run's own records.
 */
@Tag("reliability") // needs target/benchmarks.jar and the venv: mvn verify (Failsafe), after mvn package
@Timeout(300)
@Order(2) // among the longest of the reliability classes: started first, beside each other (pom.xml)
class UntilDecidedRunTest {
    static final Path PYTHON = ComparisonRunTest.PYTHON;

    @TempDir
    static Path tmp;

    @BeforeAll
    static void theJarIsBuilt() {
        ComparisonRunTest.theJarIsBuilt();
    }

    @Execution(ExecutionMode.CONCURRENT)
    @Test
    void aRunUntilDecidedSkipsTheRoundsAfterTheLookThatFoundEveryPairDecided() throws Exception {
        // noop alone: no pair to decide, so the look after round 2 stops the shape, whatever the figures; another
        // shape beside it keeps its three rounds.
        Path dir = untilDecided("until-none", "noop", 4, 3);
        JsonNode u = untilRecord(dir);
        assertEquals(2, u.path("stoppedAfter").asInt(), u.toString());
        assertEquals(Set.of(1, 2), roundsOfTrials(dir, "rate-4000"), "rounds 3 and 4 skipped, as the forks' own records show");
        assertEquals(Set.of(1, 2, 3), roundsOfTrials(dir, ProfileRunProbe.GOOD.name()), "the other shape's rounds all ran");
    }

    @Execution(ExecutionMode.CONCURRENT)
    @Test
    void aRunUntilDecidedGoesOnExactlyWhileALookFindsAPairOpen() throws Exception {
        Path dir = untilDecided("until-two", "jdk,apache-vt", 3, 0);
        JsonNode u = untilRecord(dir);
        JsonNode look = u.path("taken").get(0);
        assertEquals(2, look.path("afterRound").asInt(), u.toString());
        boolean decided = look.path("decided").asBoolean();
        for (String figure : List.of("cpu", "p50")) {
            JsonNode f = look.path("figures").path(figure);
            assertEquals(1, f.path("apart").asInt() + f.path("alike").asInt() + f.path("open").asInt(),
                    "one pair, in one state: " + f);
        }
        assertEquals(decided ? Set.of(1, 2) : Set.of(1, 2, 3), roundsOfTrials(dir, "rate-4000"), u.toString());
        assertEquals(decided ? 2 : 0, u.path("stoppedAfter").asInt(), u.toString());
    }

    /**
     * A run of the probe until decided ({@code otherRounds}: another shape's beside it, 0 for none), finished and
     * reported; the look's line and the verdict's checked here.
     */
    private static Path untilDecided(String name, String clients, int rounds, int otherRounds) throws Exception {
        Prerequisites.require(Files.isExecutable(PYTHON), "the report's venv (./bench test makes it)");
        Path root = ComparisonRunTest.root(tmp, name);
        Ran r = ComparisonRunTest.run(tmp, ComparisonRunTest.java(root, true, System.getProperty("java.class.path"),
                ProfileRunProbe.class.getName(), "until", String.valueOf(rounds), clients, String.valueOf(otherRounds)));
        assertEquals(0, r.exit(), r.all());
        Pattern look = Pattern.compile("\\[until decided] rate-4000 after round 2 of " + rounds + ": cpu \\d apart, \\d alike within "
                + "x1\\.10, \\d open; p50 \\d apart, \\d alike within x1\\.10, \\d open; (going on|decided: "
                + (rounds == 3 ? "round 3" : "rounds 3-" + rounds) + " skipped)");
        assertEquals(1, r.out().stream().filter(l -> look.matcher(l).matches()).count(), r.all());
        String looks = rounds + " looks at " + String.format(java.util.Locale.ROOT, "%.1f", 100 * (1 - 0.05 / rounds))
                + "% each"; // 98.3%, 98.8%: the verdict's confidence split over the looks and the repeats' once more
        assertTrue(r.out().stream().anyMatch(l -> l.startsWith("rate-4000 until decided (at most " + rounds + " rounds, "
                + looks + "): ")), r.all());
        Path dir = ComparisonRunTest.runFolder(root);
        JsonNode v = JsonFiles.MAPPER.readTree(dir.resolve("summary.json").toFile()).path("verdict");
        assertEquals(1 - 0.05 / rounds, v.path("untilDecided").path("final").path("confidence").asDouble(), 1e-9,
                "the confidence split over the looks");
        assertEquals(0.95, v.path("holdsFor").path("confidence").asDouble(), 1e-9, "every other shape's whole");
        return dir;
    }

    private static JsonNode untilRecord(Path dir) throws IOException {
        return JsonFiles.MAPPER.readTree(dir.resolve("env.json").toFile()).path("untilDecided");
    }

    /** The rounds of {@code shape}'s forks, as each fork's own record gives its shape and round. */
    private static Set<Integer> roundsOfTrials(Path dir, String shape) throws IOException {
        Set<Integer> rounds = new HashSet<>();
        for (String n : ComparisonRunTest.names(dir, ".trial.json")) {
            JsonNode trial = JsonFiles.MAPPER.readTree(dir.resolve(n).toFile());
            if (trial.path("shape").asText().equals(shape)) {
                rounds.add(trial.path("round").asInt());
            }
        }
        return rounds;
    }
}
