package clientbench.harness;

/**
 * A known cost planted in one arm of an upgrade's run to check its gate: each completion spins this many nanoseconds
 * of CPU on the client's thread before the harness reads the clock ({@value #PROPERTY}; 0, the default, plants
 * nothing). It stands for a library that got slower, so it lands in CPU per request and in latency alike.
 */
public final class PlantedCost {
    /** The fork's system property: nanoseconds of CPU each completion spins. */
    public static final String PROPERTY = "clientbench.plant.spinNanos";
    static final long SPIN_NANOS = Long.getLong(PROPERTY, 0);

    private PlantedCost() {
    }

    /** Spins {@link #SPIN_NANOS} on this thread; returns at once when nothing is planted. */
    static void spend() {
        if (SPIN_NANOS <= 0) {
            return;
        }
        long until = System.nanoTime() + SPIN_NANOS;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }
}
