package clientbench.jmh;

import clientbench.adapters.Adapters;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A plain {@code java -jar target/benchmarks.jar OpenLoopBenchmark} runs every client: each benchmark's
 * {@code client} parameter lists exactly the registry's names, so a client added to {@link Adapters} and
 * forgotten here fails this test rather than silently missing from JMH-native runs.
 */
class BenchmarkClientsTest {

    @Test
    void everyBenchmarkDefaultsToEveryRegisteredClient() throws Exception {
        for (Class<?> benchmark : List.of(OpenLoopBenchmark.class, ClosedLoopBenchmark.class, CapacityBenchmark.class,
                LongLivedBenchmark.class)) {
            Param p = benchmark.getField("client").getAnnotation(Param.class);
            assertEquals(Adapters.names(), List.of(p.value()), benchmark.getSimpleName() + "'s client parameter");
        }
    }
}
