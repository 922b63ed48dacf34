package clientbench.cli;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.TimeValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A knee search run one fork at a time (Profile.schedule) is one result per (shape, client) in the run's files. */
class ForksApartTest {

    private static BenchmarkParams params(String benchmark, String client, String rate) {
        WorkloadParams w = new WorkloadParams();
        w.put("client", client, 0);
        w.put("startRate", rate, 1);
        IterationParams it = new IterationParams(IterationType.MEASUREMENT, 14, TimeValue.seconds(2), 1);
        IterationParams warm = new IterationParams(IterationType.WARMUP, 2, TimeValue.seconds(2), 1);
        return new BenchmarkParams(benchmark, benchmark + "_generated", false, 1, new int[] {1}, List.of(), 1, 0, warm,
                it, Mode.Throughput, w, TimeUnit.SECONDS, 1, "java", List.of("-Xmx1g"), "25", "vm", "25", "1.37",
                TimeValue.minutes(10));
    }

    /** One JMH run of one fork (no iterations: the merge only moves forks). */
    private static RunResult oneFork(String benchmark, String client) {
        BenchmarkParams p = params(benchmark, client, "1000");
        return new RunResult(p, List.of(new BenchmarkResult(p, List.of())));
    }

    private static Map<String, Object> meta(String shape, String client, String benchmark) {
        return Map.of("shape", shape, "client", client, "benchmark", benchmark, "params", Map.of());
    }

    @Test
    void eachSearchsForksBecomeOneResultInTheFirstOnesPlace() {
        RunResult ahc1 = oneFork(Capacity.BENCHMARK, "ahc");
        RunResult noop1 = oneFork(Capacity.BENCHMARK, "noop");
        RunResult h2c = oneFork(Profile.OPEN, "ahc");
        RunResult h2Ahc = oneFork(Capacity.BENCHMARK, "ahc"); // capacity-h2: one fork, run once
        RunResult noop2 = oneFork(Capacity.BENCHMARK, "noop");
        RunResult ahc2 = oneFork(Capacity.BENCHMARK, "ahc");
        List<RunResult> all = new ArrayList<>(List.of(ahc1, noop1, h2c, h2Ahc, noop2, ahc2));
        List<Map<String, Object>> runs = new ArrayList<>(List.of(meta("capacity-http1", "ahc", Capacity.BENCHMARK),
                meta("capacity-http1", "noop", Capacity.BENCHMARK), meta("h2c-2000", "ahc", Profile.OPEN),
                meta("capacity-h2", "ahc", Capacity.BENCHMARK), meta("capacity-http1", "noop", Capacity.BENCHMARK),
                meta("capacity-http1", "ahc", Capacity.BENCHMARK)));

        ForksApart.merge(all, runs);

        assertEquals(List.of("capacity-http1/ahc", "capacity-http1/noop", "h2c-2000/ahc", "capacity-h2/ahc"),
                runs.stream().map(m -> m.get("shape") + "/" + m.get("client")).toList());
        assertEquals(4, all.size());
        RunResult ahc = all.get(0);
        assertEquals(List.of(ahc1.getBenchmarkResults().iterator().next(), ahc2.getBenchmarkResults().iterator().next()),
                List.copyOf(ahc.getBenchmarkResults()), "the forks in the order they ran");
        assertEquals(2, ahc.getParams().getForks(), "results.json and results.csv say how many forks it has");
        assertEquals("ahc", ahc.getParams().getParam("client"));
        assertEquals("1000", ahc.getParams().getParam("startRate"));
        assertEquals(ahc1.getParams().getMeasurement(), ahc.getParams().getMeasurement());
        assertEquals(2, all.get(1).getBenchmarkResults().size());
        assertSame(h2c, all.get(2), "a fixed-rate run is left as it ran");
        assertSame(h2Ahc, all.get(3), "a search run once is left as it ran");
    }

    @Test
    void resultsAndRunsMustBeAligned() {
        assertThrows(IllegalArgumentException.class, () -> ForksApart.merge(new ArrayList<>(List.of(oneFork(
                Capacity.BENCHMARK, "ahc"))), new ArrayList<>()));
    }
}
