package clientbench.harness;

import clientbench.api.Completion;
import clientbench.api.Outcome;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * One iteration of a {@link LoadGenerator}: its counters, permits and gate, and the requests it has out
 * ({@link Exchange}), so a completion that comes after the iteration's drain finds its own epoch closed.
 */
final class Epoch {

    static final long CLOSED = 1L << 62;
    static final long COUNT_MASK = CLOSED - 1;

    final Semaphore permits;
    /**
     * The requests out, one slot per permit, so that those still out at the drain deadline can be
     * found (for their lower-bound latency) without a collection that every send would feed.
     */
    final AtomicReferenceArray<Exchange> slots;
    final LongAccumulator bodyBytesMin = new LongAccumulator(Math::min, Long.MAX_VALUE);
    final LongAccumulator bodyBytesMax = new LongAccumulator(Math::max, -1);
    final long windowNanos;
    final LongAdder[] outcomes = new LongAdder[Outcome.values().length];
    final LongAdder duplicates = new LongAdder();
    /** Completions admitted so far, plus CLOSED once the drain has ended. */
    final AtomicLong gate = new AtomicLong();
    final AtomicLong recorded = new AtomicLong();
    // Written by the driving thread only.
    boolean started;
    long t0Nanos;
    long startEpochMillis;
    long windowEndNanos;
    /** Open model: a request due in the window that has not gone out by then is unsent. */
    long lastSendNanos;
    long closedAtNanos;
    long drainDeadlineNanos;
    boolean stopSeen;
    /** The driver's stop flag of the current sendNext, and a check of it that remembers a sighting. */
    BooleanSupplier driverStop;
    final BooleanSupplier stopCheck = () -> {
        if (!stopSeen && driverStop.getAsBoolean()) {
            stopSeen = true;
        }
        return stopSeen;
    };
    boolean closed;
    long sent;
    /** DROP policy: due, but every permit was taken. */
    long droppedAtLimit;
    /** Due in the window, never sent: the pacer was behind (parked for a permit, or late). */
    long unsent;
    long inFlightAtClose;
    /** The most requests out at once in the window, and when (from t0) that count was last reached. */
    long inFlightPeak;
    long inFlightPeakAfterNanos;
    long cpuNanosAtStart;
    /** The thread that sent the window's first request: the pacer, whose own CPU is a figure apart. */
    long pacerThreadId;
    long pacerCpuNanosAtStart;
    long allocatedBytesAtStart;
    long cpuNanosInWindow;
    long pacerCpuNanosInWindow;
    long allocatedBytesInWindow;
    volatile boolean ended;

    /** Where the sender looks for a free slot next. */
    int slotCursor;

    Epoch(int concurrency, long windowNanos) {
        permits = new Semaphore(concurrency);
        slots = new AtomicReferenceArray<>(concurrency);
        this.windowNanos = windowNanos;
        for (int i = 0; i < outcomes.length; i++) {
            outcomes[i] = new LongAdder();
        }
    }

    /** A free slot; called with a permit held, so one is free (a completion frees its slot first). */
    int freeSlot() {
        int n = slots.length();
        for (int k = 0; k < n; k++) {
            int i = slotCursor;
            slotCursor = i + 1 == n ? 0 : i + 1;
            if (slots.get(i) == null) {
                return i;
            }
        }
        throw new IllegalStateException("no free slot with a permit held");
    }

    /** One request in flight; its first completion counts, any other is a recorded adapter bug. */
    static final class Exchange implements Completion {
        private static final VarHandle DONE;

        static {
            try {
                DONE = MethodHandles.lookup().findVarHandle(Exchange.class, "done", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final LoadGenerator generator;
        final Epoch epoch;
        final long intendedNanos;
        final long sentAtNanos;
        final int slot;
        @SuppressWarnings("unused") // accessed through DONE
        private volatile int done;

        Exchange(LoadGenerator generator, Epoch epoch, long intendedNanos, long sentAtNanos, int slot) {
            this.generator = generator;
            this.epoch = epoch;
            this.intendedNanos = intendedNanos;
            this.sentAtNanos = sentAtNanos;
            this.slot = slot;
        }

        @Override
        public void complete(Outcome outcome, int status, Throwable cause) {
            complete(outcome, status, -1, cause);
        }

        @Override
        public void complete(Outcome outcome, int status, long bodyBytes, Throwable cause) {
            PlantedCost.spend();
            long nowNanos = System.nanoTime();
            if (!DONE.compareAndSet(this, 0, 1)) {
                epoch.duplicates.increment();
                return;
            }
            generator.record(this, outcome == null ? Outcome.OTHER : outcome, bodyBytes, nowNanos);
        }
    }
}
