package clientbench.harness;

import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import clientbench.harness.Epoch.Exchange;
import clientbench.harness.probe.JvmCounters;
import clientbench.harness.record.IterationSnapshot;
import clientbench.harness.record.Probes;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.openjdk.jmh.annotations.CompilerControl;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The load harness: paces requests on an open-model schedule (or runs closed loops), bounds those in flight and
 * accounts for each exactly once per iteration, in an exact window from its first send, which a stop never moves. One
 * thread drives it; completions come on any thread, late ones ignored by the iteration's epoch.
 */
public final class LoadGenerator {

    /** 1 us to 1 h at 3 significant digits, as every histogram in this suite. */
    public static final long HIGHEST_TRACKABLE_MICROS = TimeUnit.HOURS.toMicros(1);
    public static final int SIGNIFICANT_DIGITS = 3;
    /**
     * How long {@link #sendNext} parks, once the window's schedule is complete, before it returns to let
     * its caller look at its own stop flag (JMH checks its flag only between calls).
     */
    static final long IDLE_PARK_NANOS = 1_000_000;
    private static final BooleanSupplier NEVER = () -> false;

    private final HttpClientAdapter adapter;
    private final List<Request> requests;
    private final LoadSpec spec;
    private final Pacer pacer;
    /** Every outcome, and a lower bound for requests that never completed (see {@link #drain}). */
    private final Recorder latency = newRecorder();
    private final Recorder latencyOk = newRecorder();
    private final Recorder service = newRecorder();
    private final Recorder lag = newRecorder();
    private Epoch epoch;

    /** What one scheduling step did. */
    private enum Step { SENT, DROPPED, STOPPED, COMPLETE }

    public LoadGenerator(HttpClientAdapter adapter, Request request, LoadSpec spec) {
        this(adapter, List.of(request), spec);
    }

    /**
     * Sends {@code requests} in turn: the i-th request sent in an iteration is {@code requests[i % size]},
     * so a mix (of faults, say) is exact and known for any number sent.
     */
    public LoadGenerator(HttpClientAdapter adapter, List<Request> requests, LoadSpec spec) {
        if (requests.isEmpty()) {
            throw new IllegalArgumentException("no request to send");
        }
        this.adapter = adapter;
        this.requests = List.copyOf(requests);
        this.spec = spec;
        this.pacer = spec.isOpen() ? new Pacer(spec.ratePerSecond(), spec.arrivals() == LoadSpec.Arrivals.POISSON,
                spec.pacing()) : null;
    }

    public static Recorder newRecorder() {
        return new Recorder(1, HIGHEST_TRACKABLE_MICROS, SIGNIFICANT_DIGITS);
    }

    public static Histogram newHistogram() {
        return new Histogram(1, HIGHEST_TRACKABLE_MICROS, SIGNIFICANT_DIGITS);
    }

    public LoadSpec spec() {
        return spec;
    }

    /**
     * Offers {@code ratePerSecond} from the next iteration on (open model): a search for a client's knee
     * probes one rate per iteration. Only between iterations.
     */
    public void rate(double ratePerSecond) {
        if (pacer == null) {
            throw new IllegalStateException("the closed model has no rate");
        }
        if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
            throw new IllegalArgumentException("rate must be > 0 req/s, was " + ratePerSecond);
        }
        if (epoch != null && !epoch.ended) {
            throw new IllegalStateException("rate() during an iteration");
        }
        pacer.rate(ratePerSecond);
    }

    /** The rate the pacer offers (open model), NaN in the closed model. */
    public double rate() {
        return pacer == null ? Double.NaN : pacer.ratePerSecond();
    }

    /** Starts a new iteration whose window will be {@code windowNanos} long; the previous one must have ended. */
    public void beginIteration(long windowNanos) {
        if (windowNanos <= 0) {
            throw new IllegalArgumentException("window must be > 0 ns, was " + windowNanos);
        }
        if (epoch != null && !epoch.ended) {
            throw new IllegalStateException("beginIteration() before drain() of the previous iteration");
        }
        latency.reset();
        latencyOk.reset();
        service.reset();
        lag.reset();
        epoch = new Epoch(spec.concurrency(), windowNanos);
    }

    /**
     * Schedules and sends one request: waits for its intended start (open model), then a permit (or drops it), and
     * hands it to the adapter; true when it scheduled one. False at once after {@code stop} is seen, the rest left to
     * {@link #closeWindow}; with the schedule complete, parks and returns false, closing the window at its end.
     * Never inlined: the warm-up's loop and JMH's then run one compiled copy, not a second large compile after the
     * fork is steady.
     */
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public boolean sendNext(BooleanSupplier stop) {
        Epoch e = current("sendNext()");
        if (e.stopSeen) {
            return false;
        }
        if (stop.getAsBoolean()) {
            e.stopSeen = true;
            return false;
        }
        if (!e.started) {
            startWindow(e);
        }
        if (!e.closed) {
            e.driverStop = stop;
            switch (step(e, e.stopCheck)) {
                case SENT, DROPPED -> {
                    return true;
                }
                case STOPPED -> {
                    return false;
                }
                case COMPLETE -> {
                    long nowNanos = System.nanoTime();
                    if (nowNanos - e.windowEndNanos >= 0) {
                        close(e, nowNanos);
                    } else {
                        LockSupport.parkNanos(Math.min(IDLE_PARK_NANOS, e.windowEndNanos - nowNanos));
                        return false;
                    }
                }
            }
        }
        LockSupport.parkNanos(IDLE_PARK_NANOS); // the window is closed; the caller's stop is still to come
        return false;
    }

    private void startWindow(Epoch e) {
        e.started = true;
        e.cpuNanosAtStart = JvmCounters.processCpuNanos();
        e.pacerThreadId = Thread.currentThread().threadId();
        e.pacerCpuNanosAtStart = JvmCounters.threadCpuNanos(e.pacerThreadId);
        e.allocatedBytesAtStart = JvmCounters.allocatedBytes();
        e.t0Nanos = System.nanoTime();
        e.startEpochMillis = System.currentTimeMillis();
        e.windowEndNanos = e.t0Nanos + e.windowNanos;
        e.lastSendNanos = e.windowEndNanos + spec.lateSendGrace().toNanos();
        if (pacer != null) {
            pacer.start(e.t0Nanos);
        }
    }

    /** One request of the window's schedule, or COMPLETE when nothing of it is left to send. */
    private Step step(Epoch e, BooleanSupplier stop) {
        long intendedNanos;
        long deadlineNanos;
        if (pacer != null) {
            intendedNanos = pacer.dueNanos();
            if (intendedNanos - e.windowEndNanos >= 0) {
                return Step.COMPLETE;
            }
            if (!pacer.awaitUntil(intendedNanos, stop)) {
                return Step.STOPPED;
            }
            deadlineNanos = e.lastSendNanos;
        } else {
            intendedNanos = 0; // closed model: no schedule, latency is service time
            deadlineNanos = e.windowEndNanos;
        }
        if (System.nanoTime() - deadlineNanos >= 0) {
            return Step.COMPLETE; // open model: what is still due is unsent; closed: the loops stop
        }
        if (!e.permits.tryAcquire()) {
            if (spec.backpressure() == LoadSpec.Backpressure.DROP && pacer != null) {
                pacer.advance();
                e.droppedAtLimit++;
                return Step.DROPPED;
            }
            Step waited = awaitPermit(e, deadlineNanos, stop);
            if (waited != null) {
                return waited;
            }
        }
        if (pacer != null) {
            pacer.advance();
        }
        send(e, intendedNanos);
        return Step.SENT;
    }

    /** Null once a permit is held; STOPPED or COMPLETE (the deadline passed) without one. */
    private static Step awaitPermit(Epoch e, long deadlineNanos, BooleanSupplier stop) {
        try {
            while (true) {
                long leftNanos = deadlineNanos - System.nanoTime();
                if (leftNanos <= 0) {
                    return Step.COMPLETE;
                }
                if (e.permits.tryAcquire(Math.min(leftNanos, Pacer.MAX_PARK_NANOS), TimeUnit.NANOSECONDS)) {
                    // A wait that woke late can take a permit freed after the deadline: that send is too late.
                    if (System.nanoTime() - deadlineNanos >= 0) {
                        e.permits.release();
                        return Step.COMPLETE;
                    }
                    return null;
                }
                if (stop.getAsBoolean()) {
                    return Step.STOPPED;
                }
            }
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            return Step.STOPPED;
        }
    }

    private void send(Epoch e, long intendedNanos) {
        long sentAtNanos = System.nanoTime();
        if (pacer == null) {
            intendedNanos = sentAtNanos;
        } else {
            lag.recordValue(micros(sentAtNanos - intendedNanos));
        }
        Request request = requests.get((int) (e.sent % requests.size()));
        e.sent++;
        Exchange x = new Exchange(this, e, intendedNanos, sentAtNanos, e.freeSlot());
        e.slots.set(x.slot, x);
        long inFlight = e.sent - e.recorded.get();
        if (inFlight > e.inFlightPeak) {
            e.inFlightPeak = inFlight;
            e.inFlightPeakAfterNanos = sentAtNanos - e.t0Nanos;
        }
        try {
            adapter.send(request, x);
        } catch (Throwable t) {
            x.complete(Outcomes.ofThrowable(t), 0, -1, t); // a client that throws instead of reporting
        }
    }

    /**
     * Closes the window: sends what is still due (open model: each as late as it must be, up to
     * {@link LoadSpec#lateSendGrace()} after the end; closed: loops run to the end), waits for the end and accounts for
     * the unsent. Probes after it no longer move the window.
     */
    public void closeWindow() {
        Epoch e = current("closeWindow()");
        if (e.closed) {
            return;
        }
        if (!e.started) {
            e.closed = true; // nothing was ever sent: an empty window
            e.cpuNanosInWindow = -1;
            e.pacerCpuNanosInWindow = -1;
            e.allocatedBytesInWindow = -1;
            e.drainDeadlineNanos = System.nanoTime();
            return;
        }
        while (step(e, NEVER) != Step.COMPLETE) {
            // each step sends (or drops) one request of the window
        }
        long nowNanos;
        while ((nowNanos = System.nanoTime()) - e.windowEndNanos < 0) {
            LockSupport.parkNanos(e.windowEndNanos - nowNanos);
        }
        close(e, nowNanos);
    }

    private void close(Epoch e, long nowNanos) {
        if (pacer != null) {
            // Due within the window but never sent: the callers were there, the requests never went out.
            // Each waited at least until now: that lower bound keeps them in the latency tail.
            e.unsent = pacer.skipDueBefore(e.windowEndNanos, intendedNanos -> latency.recordValue(micros(nowNanos - intendedNanos)));
        }
        e.closedAtNanos = nowNanos;
        e.inFlightAtClose = e.sent - e.recorded.get();
        // The CPU of requests still out is partly after this; the previous window's tail, drained before
        // this one began, is not in it: a window's count misses the last few requests' completions.
        e.cpuNanosInWindow = JvmCounters.delta(e.cpuNanosAtStart, JvmCounters.processCpuNanos());
        e.pacerCpuNanosInWindow = JvmCounters.delta(e.pacerCpuNanosAtStart, JvmCounters.threadCpuNanos(e.pacerThreadId));
        e.allocatedBytesInWindow = JvmCounters.delta(e.allocatedBytesAtStart, JvmCounters.allocatedBytes());
        e.drainDeadlineNanos = nowNanos + spec.drainTimeout().toNanos();
        e.closed = true;
    }

    /**
     * Waits up to the drain timeout for requests in flight, closes the epoch so later completions are ignored, and
     * returns the exact accounting. {@code latency} holds requests still out and unsent ones at lower bounds, so the
     * longest waits are in its tail; {@code latencyOk} is what a caller that got an answer saw.
     */
    public IterationSnapshot drain() {
        Epoch e = current("drain()");
        if (!e.closed) {
            throw new IllegalStateException("drain() before closeWindow()");
        }
        while (e.recorded.get() < e.sent && System.nanoTime() - e.drainDeadlineNanos < 0) {
            LockSupport.parkNanos(200_000);
        }
        long admitted = e.gate.getAndAdd(Epoch.CLOSED) & Epoch.COUNT_MASK;
        while (e.recorded.get() < admitted) {
            Thread.onSpinWait(); // completions that passed the gate are finishing their recording
        }
        e.ended = true;
        long expired = e.sent - admitted;
        long stillOut = 0;
        for (int i = 0; i < e.slots.length(); i++) {
            Exchange x = e.slots.get(i);
            if (x != null) { // only when the drain ran to its deadline: each waited at least until then
                stillOut++;
                latency.recordValue(micros(e.drainDeadlineNanos - x.intendedNanos));
            }
        }
        if (stillOut != expired) {
            throw new IllegalStateException("accounting does not balance: " + stillOut + " requests still out, "
                    + expired + " sent and never admitted");
        }
        long completed = 0;
        long[] outcomes = new long[Outcome.values().length];
        for (Outcome o : Outcome.values()) {
            outcomes[o.ordinal()] = e.outcomes[o.ordinal()].sum();
            completed += outcomes[o.ordinal()];
        }
        if (completed != admitted) {
            throw new IllegalStateException("accounting does not balance: " + completed + " outcomes counted, "
                    + admitted + " completions admitted");
        }
        outcomes[Outcome.TIMEOUT.ordinal()] += expired;
        long scheduled = e.sent + e.droppedAtLimit + e.unsent;
        return new IterationSnapshot(pacer != null, pacer != null ? pacer.ratePerSecond() : Double.NaN, e.started ? e.windowNanos : 0, e.startEpochMillis, scheduled, e.sent,
                e.droppedAtLimit + e.unsent, e.unsent, outcomes, expired, e.duplicates.sum(),
                latency.getIntervalHistogram(), latencyOk.getIntervalHistogram(), service.getIntervalHistogram(),
                lag.getIntervalHistogram(), e.inFlightAtClose, e.inFlightPeak, e.inFlightPeakAfterNanos,
                e.cpuNanosInWindow, e.pacerCpuNanosInWindow, e.allocatedBytesInWindow,
                e.bodyBytesMin.get() == Long.MAX_VALUE ? -1 : e.bodyBytesMin.get(), e.bodyBytesMax.get(), Probes.NONE);
    }

    /** {@link #closeWindow}, then {@link #drain}: for callers with nothing to probe at the window's end. */
    public IterationSnapshot endIteration() {
        closeWindow();
        return drain();
    }

    private Epoch current(String what) {
        Epoch e = epoch;
        if (e == null || e.ended) {
            throw new IllegalStateException(what + " outside an iteration (beginIteration() first)");
        }
        return e;
    }

    static long micros(long nanos) {
        return Math.max(0, Math.min(HIGHEST_TRACKABLE_MICROS, nanos / 1_000));
    }

    void record(Exchange x, Outcome outcome, long bodyBytes, long nowNanos) {
        Epoch e = x.epoch;
        long admitted = e.gate.getAndIncrement();
        if ((admitted & Epoch.CLOSED) != 0) {
            return; // abandoned at the drain deadline and already counted as a timeout
        }
        e.outcomes[outcome.ordinal()].increment();
        long latencyMicros = micros(nowNanos - x.intendedNanos);
        latency.recordValue(latencyMicros);
        if (outcome == Outcome.OK) {
            latencyOk.recordValue(latencyMicros);
        }
        service.recordValue(micros(nowNanos - x.sentAtNanos));
        if (bodyBytes >= 0) {
            e.bodyBytesMin.accumulate(bodyBytes);
            e.bodyBytesMax.accumulate(bodyBytes);
        }
        e.slots.set(x.slot, null); // before the permit: a sender holding a permit always finds a free slot
        e.recorded.incrementAndGet();
        e.permits.release();
    }
}
