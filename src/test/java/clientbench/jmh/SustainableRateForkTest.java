package clientbench.jmh;

import clientbench.harness.rule.Flag;
import clientbench.harness.rule.Steadiness;
import clientbench.testkit.ForkedRuns;
import com.fasterxml.jackson.databind.JsonNode;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.options.TimeValue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static clientbench.testkit.ForkedRuns.score;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A forked, pinned JMH run at a rate any client sustains drops nothing: each window schedules rate x time, all sent and
 * answered as the stub counts; the score is ok/s. Exact under load: 400 req/s is a few % of the JDK client's capacity.
 * How late the pacer sent is not bounded here (a loaded host decides it) but flagged where it shows in the latency.
 */
@Timeout(180)
class SustainableRateForkTest {
    private static final int RATE = 400;
    private static final int ITERATIONS = 2;
    private static final int SECONDS = 2;
    /** The warm-up's own rate (OpenLoopBenchmark.warmupRate), light enough to stay exact as the measured one. */
    private static final int WARMUP_RATE = 800;
    /** At most four settle windows of 1 s (LoadBenchmark.settle). */
    private static final int SETTLE_SECONDS = 4;
    private static final int SETTLE_WINDOW_SECONDS = 1;

    @TempDir
    static Path hlogs;

    private static RunResult r;

    /** The one forked run both tests read. */
    @BeforeAll
    static void run() throws Exception {
        r = ForkedRuns.run(ForkedRuns.options(OpenLoopBenchmark.class, hlogs)
                .param("client", "jdk").param("rate", Integer.toString(RATE)).param("warmupRate", Integer.toString(WARMUP_RATE))
                .param("settleSeconds", Integer.toString(SETTLE_SECONDS))
                .warmupIterations(1).warmupTime(TimeValue.seconds(SECONDS))
                .measurementIterations(ITERATIONS).measurementTime(TimeValue.seconds(SECONDS))
                .jvmArgsAppend("-Dclientbench.shape=sustainable-" + RATE));
    }

    @Test
    void aSustainableRateDropsNothingAndThePrimaryScoreIsOkPerSecond() {

        long due = (long) RATE * SECONDS * ITERATIONS;
        assertEquals(due, score(r, "n.scheduled"), 0.0, "each window scheduled exactly rate x time");
        assertEquals(0, score(r, "n.unsent"), 0.0, "nothing due in a window was left unsent");
        assertEquals(0, score(r, "n.dropped"), 0.0);
        assertEquals(due, score(r, "n.ok"), 0.0, "everything sent was answered ok");
        // Outside the harness: the stub counted what it answered over the same iterations.
        assertEquals(score(r, "n.sent"), score(r, "stub.requests"), 0.0, "the stub answered every request sent");
        // Read, not held to 0 here: the kernel's counters are the whole machine's, and other tests may overflow theirs.
        assertTrue(score(r, "listen.overflows") >= 0, "the accept-queue counters were read");

        double ok = score(r, "ok");
        assertEquals(RATE, ok, 1e-6, "ok/s over the exact window");
        assertEquals(ok, r.getPrimaryResult().getScore(), 1e-6, "JMH's headline is ok/s");
        for (BenchmarkResult b : r.getBenchmarkResults()) {
            for (IterationResult i : b.getIterationResults()) {
                assertEquals(RATE, i.getPrimaryResult().getScore(), 1e-6, "every iteration's line is ok/s too");
            }
        }
    }

    /**
     * The pacer's lag is a figure, not a bound: a loaded host may make it late by any amount, and then the window must
     * carry the lag flag. Each measured window's lag and latency p99 are read from its .hlog, apart from the profiler.
     */
    @Test
    void aWindowWhoseLagIsAVisiblePartOfItsLatencyIsFlaggedAndNoOtherIs() throws Exception {
        Map<String, List<Histogram>> byTag = new HashMap<>();
        try (var files = Files.newDirectoryStream(hlogs, "*.hlog")) {
            for (Path f : files) {
                HistogramLogReader reader = new HistogramLogReader(f.toFile());
                for (EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; ) {
                    byTag.computeIfAbsent(h.getTag(), k -> new ArrayList<>()).add((Histogram) h);
                }
            }
        }
        List<IterationResult> measured = new ArrayList<>();
        r.getBenchmarkResults().forEach(b -> measured.addAll(b.getIterationResults()));
        assertEquals(ITERATIONS, measured.size());
        assertEquals(ITERATIONS, byTag.get("lag").size(), "a lag histogram per measured window: " + byTag.keySet());
        for (int i = 0; i < ITERATIONS; i++) {
            long lagP99 = byTag.get("lag").get(i).getValueAtPercentile(99);
            long latencyP99 = byTag.get("latency").get(i).getValueAtPercentile(99);
            boolean visible = lagP99 > Flag.LAG_FLOOR_MICROS && lagP99 > Flag.LAG_SHARE_OF_LATENCY * latencyP99;
            assertEquals(visible ? 1 : 0, measured.get(i).getSecondaryResults().get(Flag.LAG.metric()).getScore(), 0.0,
                    "window " + (i + 1) + ": lag p99 " + lagP99 + " us, latency p99 " + latencyP99 + " us");
        }
    }

    /** One fork, so one trial and one record. */
    @Test
    void theTrialsRecordCarriesWhatRanAndEveryIteration() throws Exception {
        JsonNode t = ForkedRuns.trialRecord(hlogs);
        assertEquals(OpenLoopBenchmark.class.getName() + "." + LoadBenchmark.METHOD, t.path("benchmark").asText());
        assertEquals("sustainable-" + RATE, t.path("shape").asText());
        assertEquals("jdk", t.path("params").path("client").asText());
        assertEquals(Integer.toString(RATE), t.path("params").path("rate").asText());
        assertEquals("64", t.path("params").path("connections").asText(), "every JMH parameter, defaults too");
        assertTrue(t.path("layout").has("pacing"), t.path("layout").toString());
        assertTrue(t.path("settings").has("library"), t.path("settings").toString());
        JsonNode iterations = t.path("iterations");
        // The settle windows first, 1 to 4 by the bound; the record's own windows say when they stopped, and why.
        int settled = 0;
        while (settled < iterations.size() && iterations.get(settled).has("settle")) {
            JsonNode w = iterations.get(settled);
            settled++;
            assertEquals(settled, w.path("settle").asInt(), w.toString());
            assertFalse(w.path("measured").asBoolean());
            assertEquals((long) WARMUP_RATE * SETTLE_WINDOW_SECONDS, w.path("scheduled").asLong(),
                    "settle windows run at warmupRate, 1 s each");
            assertEquals(w.path("sent").asLong(), w.path("probes").path("stubRequests").asLong(), w.toString());
        }
        int most = SETTLE_SECONDS / SETTLE_WINDOW_SECONDS;
        assertTrue(settled >= 1 && settled <= most, "1 to " + most + " settle windows, was " + settled);
        JsonNode said = t.path("warmup");
        assertEquals(settled, said.path("windows").asInt(), said.toString());
        assertEquals(Steadiness.JIT_SHARE, said.path("jitShare").asDouble(), 0.0, said.toString());
        assertEquals(Steadiness.P50_CHANGE, said.path("p50Change").asDouble(), 0.0, said.toString());
        int steadyAt = steadyAt(iterations, settled);
        if (steadyAt > 0) {
            assertTrue(said.path("steady").asBoolean(), "windows " + steadyAt + " and the one before meet the rule: " + said);
            assertEquals(steadyAt, settled, "settling stops at the first steady window: " + said);
        } else {
            assertFalse(said.path("steady").asBoolean(), "no two windows meet the rule: " + said);
            long spent = 0;
            for (int i = 0; i < settled; i++) {
                spent += iterations.get(i).path("windowNanos").asLong();
            }
            assertTrue(spent + TimeUnit.SECONDS.toNanos(SETTLE_WINDOW_SECONDS) > TimeUnit.SECONDS.toNanos(SETTLE_SECONDS),
                    "unsteady, so settling ran until no further window fit its bound: " + spent + " ns spent");
        }
        // A JVM's first seconds always compile something: the JIT share is read, and not zero then.
        assertTrue(iterations.get(0).path("probes").path("jitShare").asDouble() > 0, iterations.get(0).toString());
        assertEquals(settled + 1 + ITERATIONS, iterations.size(), "the settle windows, the warm-up and the measured iterations");
        JsonNode warmup = iterations.get(settled);
        assertFalse(warmup.path("measured").asBoolean());
        assertFalse(warmup.has("settle"));
        assertEquals((long) WARMUP_RATE * SECONDS, warmup.path("scheduled").asLong(), "the warm-up ran at warmupRate");
        assertEquals(warmup.path("sent").asLong(), warmup.path("probes").path("stubRequests").asLong(), warmup.toString());
        for (int i = 1; i <= ITERATIONS; i++) {
            JsonNode it = iterations.get(settled + i);
            assertTrue(it.path("measured").asBoolean());
            assertEquals((long) RATE * SECONDS, it.path("scheduled").asLong(), it.toString());
            assertEquals(it.path("sent").asLong(), it.path("probes").path("stubRequests").asLong(), it.toString());
            assertTrue(it.path("probes").path("jitShare").asDouble() >= 0, it.toString());
        }
    }

    /**
     * The steadiness rule replayed from the settle windows' own figures: the first window (1-based) that, with the one
     * before it, ran as measured (no CPUs lent to the compilers), compiled under the JIT share, a share read (>= 0), and
     * moved latency p50 by at most p50Change; 0 when none did.
     */
    static int steadyAt(JsonNode iterations, int settled) {
        for (int k = 1; k < settled; k++) {
            JsonNode before = iterations.get(k - 1);
            JsonNode w = iterations.get(k);
            double p50Before = before.path("latencyMicros").path("p50").asDouble();
            double p50 = w.path("latencyMicros").path("p50").asDouble();
            if (quietAsMeasured(before) && quietAsMeasured(w) && p50Before > 0 && p50 > 0
                    && Math.abs(p50 / p50Before - 1) <= Steadiness.P50_CHANGE) {
                return k + 1;
            }
        }
        return 0;
    }

    private static boolean quietAsMeasured(JsonNode w) {
        double jit = w.path("probes").path("jitShare").asDouble(-1);
        return !w.path("settle.compilersOnEveryCpu").asBoolean() && jit >= 0 && jit < Steadiness.JIT_SHARE;
    }
}
