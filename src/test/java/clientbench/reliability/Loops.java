package clientbench.reliability;

import clientbench.harness.IterationSnapshot;
import clientbench.harness.LoadGenerator;

/** Runs one iteration of a load generator for a fixed time, as a JMH iteration would. */
final class Loops {
    private Loops() {
    }

    static IterationSnapshot iteration(LoadGenerator g, long millis) {
        g.beginIteration(millis * 1_000_000);
        long end = System.nanoTime() + millis * 1_000_000;
        while (g.sendNext(() -> System.nanoTime() >= end)) {
            // each call schedules one request
        }
        return g.endIteration();
    }
}
