package clientbench.harness;

import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The load harness: paces requests on an open-model schedule (or runs closed loops), bounds the
 * requests in flight, and accounts for every request exactly once per iteration.
 *
 * <p>One thread drives it ({@link #sendNext} between {@link #beginIteration} and {@link #endIteration});
 * completions arrive on any client thread. Each iteration is an {@code Epoch}: at its drain deadline
 * the epoch's gate closes, the requests still out are counted as timeouts, and their late completions
 * are ignored, so nothing leaks into the next iteration and nothing is counted twice.
 */
public final class LoadGenerator {

    /** 1 us to 1 h at 3 significant digits, as every histogram in this suite. */
    public static final long HIGHEST_MICROS = TimeUnit.HOURS.toMicros(1);
    public static final int DIGITS = 3;

    private final HttpClientAdapter adapter;
    private final java.util.List<Request> requests;
    private final LoadSpec spec;
    private final Pacer pacer;
    private final Recorder latency = newRecorder();
    private final Recorder service = newRecorder();
    private final Recorder lag = newRecorder();
    private Epoch epoch;

    public LoadGenerator(HttpClientAdapter adapter, Request request, LoadSpec spec) {
        this(adapter, java.util.List.of(request), spec);
    }

    /**
     * Sends {@code requests} in turn: the i-th request sent in an iteration is {@code requests[i % size]},
     * so a mix (of faults, say) is exact and known for any number sent.
     */
    public LoadGenerator(HttpClientAdapter adapter, java.util.List<Request> requests, LoadSpec spec) {
        if (requests.isEmpty()) {
            throw new IllegalArgumentException("no request to send");
        }
        this.adapter = adapter;
        this.requests = java.util.List.copyOf(requests);
        this.spec = spec;
        this.pacer = spec.isOpen() ? new Pacer(spec.ratePerSecond(), spec.arrivals() == LoadSpec.Arrivals.POISSON) : null;
    }

    public static Recorder newRecorder() {
        return new Recorder(1, HIGHEST_MICROS, DIGITS);
    }

    public static Histogram newHistogram() {
        return new Histogram(1, HIGHEST_MICROS, DIGITS);
    }

    public LoadSpec spec() {
        return spec;
    }

    /** Starts a new iteration; the previous one must have ended. */
    public void beginIteration() {
        if (epoch != null && !epoch.ended) {
            throw new IllegalStateException("beginIteration() before endIteration() of the previous iteration");
        }
        latency.reset();
        service.reset();
        lag.reset();
        epoch = new Epoch(spec.concurrency());
    }

    /**
     * Schedules and sends one request: waits for its intended start (open model), then for a permit
     * (or drops it), then hands it to the adapter. Returns false without scheduling anything once
     * {@code stop} is true, or when it turns true before the request is due; a request that waited
     * for a permit until {@code stop} is counted as dropped. Requests that fell due but were never
     * reached (the pacer was parked behind a full window) are counted by {@link #endIteration}.
     */
    public boolean sendNext(BooleanSupplier stop) {
        Epoch e = epoch;
        if (e == null || e.ended) {
            throw new IllegalStateException("sendNext() outside an iteration");
        }
        if (stopped(e, stop)) {
            return false;
        }
        if (e.t0 == 0) {
            e.t0 = System.nanoTime();
            if (pacer != null) {
                pacer.start(e.t0);
            }
        }
        long intended = 0;
        if (pacer != null) {
            intended = pacer.due();
            if (!Pacer.awaitUntil(intended, () -> stopped(e, stop))) {
                return false;
            }
            pacer.advance();
        }
        e.scheduled++;
        if (!acquire(e, () -> stopped(e, stop))) {
            e.dropped++;
            return true;
        }
        long sentAt = System.nanoTime();
        if (pacer == null) {
            intended = sentAt; // closed model: no schedule, latency is service time
        } else {
            lag.recordValue(micros(sentAt - intended));
        }
        Request request = requests.get((int) (e.sent % requests.size()));
        e.sent++;
        Exchange x = new Exchange(this, e, intended, sentAt);
        try {
            adapter.send(request, x);
        } catch (Throwable t) {
            x.complete(Outcomes.ofThrowable(t), 0, t); // a client that throws instead of reporting
        }
        return true;
    }

    /** True once {@code stop} has been seen; the first sighting ends the sending window. */
    private static boolean stopped(Epoch e, BooleanSupplier stop) {
        if (e.stopAt != 0) {
            return true;
        }
        if (stop.getAsBoolean()) {
            e.stopAt = System.nanoTime();
            return true;
        }
        return false;
    }

    private boolean acquire(Epoch e, BooleanSupplier stop) {
        if (e.permits.tryAcquire()) {
            return true;
        }
        if (spec.backpressure() == LoadSpec.Backpressure.DROP) {
            return false;
        }
        try {
            while (!e.permits.tryAcquire(1, TimeUnit.MILLISECONDS)) {
                if (stop.getAsBoolean()) {
                    return false;
                }
            }
            return true;
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Ends the iteration: no more sends (the window ended when {@code stop} was first seen, or now);
     * waits up to the drain timeout for the requests in flight;
     * closes the epoch so that later completions are ignored; returns the exact accounting.
     */
    public IterationSnapshot endIteration() {
        Epoch e = epoch;
        if (e == null || e.ended) {
            throw new IllegalStateException("endIteration() without beginIteration()");
        }
        long end = e.stopAt != 0 ? e.stopAt : System.nanoTime();
        long window = e.t0 == 0 ? 0 : end - e.t0;
        if (pacer != null && e.t0 != 0) {
            // Due within the window but never reached: the callers were there, the requests never went out.
            long unsent = pacer.skipDueBy(end);
            e.scheduled += unsent;
            e.dropped += unsent;
            e.unsentAtEnd = unsent;
        }
        long inFlightAtEnd = e.sent - e.recorded.get();
        long deadline = System.nanoTime() + spec.drainTimeout().toNanos();
        while (e.recorded.get() < e.sent && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(200_000);
        }
        long admitted = e.gate.getAndAdd(Epoch.CLOSED) & Epoch.COUNT_MASK;
        while (e.recorded.get() < admitted) {
            Thread.onSpinWait(); // completions that passed the gate are finishing their recording
        }
        e.ended = true;
        long expired = e.sent - admitted;
        long[] outcomes = new long[Outcome.values().length];
        for (Outcome o : Outcome.values()) {
            outcomes[o.ordinal()] = e.outcomes[o.ordinal()].sum();
        }
        outcomes[Outcome.TIMEOUT.ordinal()] += expired;
        return new IterationSnapshot(pacer != null, window, e.scheduled, e.sent, e.dropped, e.unsentAtEnd, outcomes, expired,
                e.duplicates.sum(), latency.getIntervalHistogram(), service.getIntervalHistogram(),
                lag.getIntervalHistogram(), inFlightAtEnd, -1, -1, -1);
    }

    static long micros(long nanos) {
        return Math.max(0, Math.min(HIGHEST_MICROS, nanos / 1_000));
    }

    private void record(Exchange x, Outcome outcome, long now) {
        Epoch e = x.epoch;
        long admitted = e.gate.getAndIncrement();
        if ((admitted & Epoch.CLOSED) != 0) {
            return; // abandoned at the drain deadline and already counted as a timeout
        }
        e.outcomes[outcome.ordinal()].increment();
        latency.recordValue(micros(now - x.intended));
        service.recordValue(micros(now - x.sentAt));
        e.recorded.incrementAndGet();
        e.permits.release();
    }

    /** One iteration's counters, permits and gate. */
    private static final class Epoch {
        static final long CLOSED = 1L << 62;
        static final long COUNT_MASK = CLOSED - 1;

        final Semaphore permits;
        final LongAdder[] outcomes = new LongAdder[Outcome.values().length];
        final LongAdder duplicates = new LongAdder();
        /** Completions admitted so far, plus CLOSED once the drain has ended. */
        final AtomicLong gate = new AtomicLong();
        final AtomicLong recorded = new AtomicLong();
        // Written by the driving thread only.
        long t0;
        long stopAt;
        long scheduled;
        long sent;
        long dropped;
        long unsentAtEnd;
        volatile boolean ended;

        Epoch(int concurrency) {
            permits = new Semaphore(concurrency);
            for (int i = 0; i < outcomes.length; i++) {
                outcomes[i] = new LongAdder();
            }
        }
    }

    /** One request in flight; its first completion counts, any other is a recorded adapter bug. */
    private static final class Exchange implements Completion {
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
        final long intended;
        final long sentAt;
        @SuppressWarnings("unused") // accessed through DONE
        private volatile int done;

        Exchange(LoadGenerator generator, Epoch epoch, long intended, long sentAt) {
            this.generator = generator;
            this.epoch = epoch;
            this.intended = intended;
            this.sentAt = sentAt;
        }

        @Override
        public void complete(Outcome outcome, int status, Throwable cause) {
            long now = System.nanoTime();
            if (!DONE.compareAndSet(this, 0, 1)) {
                epoch.duplicates.increment();
                return;
            }
            generator.record(this, outcome == null ? Outcome.OTHER : outcome, now);
        }
    }
}
