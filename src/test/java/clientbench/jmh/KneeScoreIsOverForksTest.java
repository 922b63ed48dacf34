package clientbench.jmh;

import clientbench.harness.record.JsonFiles;
import clientbench.testkit.ForkedRuns;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.options.TimeValue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * JMH's own table tells the truth for the knee: a knee search gives its knee once per fork, and JMH's score for it
 * is the mean of the forks' knees (each fork's as its trial record says), never averaged with the probes that give
 * none. The knee's value does not matter here, so the search is short and the client is the JDK's.
 */
class KneeScoreIsOverForksTest {

    @Test
    void jmhsKneeIsTheMeanOfTheForksKneesAndEachForksScoreIsItsOwn(@TempDir Path dir) throws Exception {
        RunResult r = ForkedRuns.run(ForkedRuns.options(CapacityBenchmark.class, dir).forks(2)
                .warmupIterations(0).measurementIterations(4).measurementTime(TimeValue.seconds(1))
                .param("client", "jdk").param("startRate", "1000").param("ceilingRate", "4000")
                .param("settleSeconds", "0")); // not its subject

        List<Double> recorded = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".trial.json")).sorted().toList()) {
                JsonNode its = JsonFiles.MAPPER.readTree(f.toFile()).get("iterations");
                recorded.add(its.get(its.size() - 1).get("knee").asDouble());
            }
        }
        assertEquals(2, recorded.size(), "one trial record per fork");
        assertEquals((recorded.get(0) + recorded.get(1)) / 2, ForkedRuns.score(r, "knee"), 1e-6);

        List<Double> perFork = new ArrayList<>();
        for (BenchmarkResult fork : r.getBenchmarkResults()) {
            Result<?> knee = fork.getSecondaryResults().get("knee");
            perFork.add(knee.getScore());
            assertEquals(1, knee.getSampleCount(), "a fork gives its knee once");
        }
        assertEquals(recorded.stream().sorted().toList(), perFork.stream().sorted().toList());
        assertEquals(2, r.getAggregatedResult().getSecondaryResults().get("knee").getSampleCount(), "over the forks");
    }
}
