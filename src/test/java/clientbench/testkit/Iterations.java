package clientbench.testkit;

import clientbench.harness.record.IterationSnapshot;
import clientbench.harness.LoadGenerator;
import clientbench.harness.Trial;

import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One iteration driven as JMH drives it: the window begins, the driver sends until its stop flag, keeps calling
 * until that stop (JMH checks its flag only between calls), and ends the iteration (close, drain, snapshot).
 */
public final class Iterations {

    private Iterations() {
    }

    /** An iteration of {@code windowMillis} whose driver stops at the window's end, as seen before the first send. */
    public static IterationSnapshot run(LoadGenerator g, long windowMillis) {
        return run(g, windowMillis, 0);
    }

    /**
     * An iteration of {@code windowMillis} whose driver stops {@code stopOffsetMillis} from the window's end as seen
     * from {@code beginIteration} (the window starts at the first send, a little later: a negative offset is at least
     * that early, as JMH's stop normally is).
     */
    public static IterationSnapshot run(LoadGenerator g, long windowMillis, long stopOffsetMillis) {
        return drive(g::beginIteration, g::sendNext, g::endIteration, windowMillis, stopOffsetMillis);
    }

    /** As {@link #run(LoadGenerator, long, long)}, for a whole trial: its probes and the stub's counts too. */
    public static IterationSnapshot run(Trial t, long windowMillis, long stopOffsetMillis, boolean measured) {
        return drive(t::beginIteration, t::sendNext, () -> t.endIteration(measured), windowMillis, stopOffsetMillis);
    }

    private static IterationSnapshot drive(LongConsumer begin, Predicate<BooleanSupplier> sendNext,
                                           Supplier<IterationSnapshot> end, long windowMillis, long stopOffsetMillis) {
        begin.accept(windowMillis * 1_000_000);
        long stopNanos = System.nanoTime() + (windowMillis + stopOffsetMillis) * 1_000_000;
        BooleanSupplier stop = () -> System.nanoTime() - stopNanos >= 0;
        while (sendNext.test(stop)) {
            // each true is one request scheduled
        }
        while (!stop.getAsBoolean()) {
            sendNext.test(stop); // JMH keeps calling until its own stop
        }
        return end.get();
    }
}
