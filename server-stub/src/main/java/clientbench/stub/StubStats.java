package clientbench.stub;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters shared by every connection of one stub; cheap to bump from any event loop. A measurement
 * window starts at {@link #mark}: the peaks and the count of connections used restart there, so a
 * harness can ask what happened between two marks (see {@link StubServer.Stats}).
 */
final class StubStats {
    final AtomicInteger openConnections = new AtomicInteger();
    /** Connections accepted since start. */
    final LongAdder accepted = new LongAdder();
    /** The most connections open at once since the last mark. */
    final AtomicInteger peakOpen = new AtomicInteger();
    final LongAdder requests = new LongAdder();
    /** The part of {@link #requests} answered on HTTP/2 streams (h2c or h2); the rest were HTTP/1.1. */
    final LongAdder http2Requests = new LongAdder();
    final LongAdder badRequests = new LongAdder();
    final LongAdder faults = new LongAdder();
    /** Connections that carried at least one request since the last mark. */
    final LongAdder usedConnections = new LongAdder();
    /** The most HTTP/2 streams open at once on one connection since the last mark. */
    final AtomicInteger peakStreams = new AtomicInteger();
    private volatile int epoch;
    private long lastRequests;
    private long lastNanos = System.nanoTime();

    /** Per connection: which window it was last counted as used in, and its open HTTP/2 streams. */
    static final class Connection {
        static final AttributeKey<Connection> KEY = AttributeKey.valueOf("clientbench.stub.connection");
        int usedInEpoch = -1;
        int openStreams;
    }

    void opened(Channel ch) {
        ch.attr(Connection.KEY).set(new Connection());
        accepted.increment();
        int open = openConnections.incrementAndGet();
        peakOpen.accumulateAndGet(open, Math::max);
        ch.closeFuture().addListener(f -> openConnections.decrementAndGet());
    }

    /** A request answered on {@code connection} (the TCP connection, for HTTP/2 the stream's parent). */
    void answered(Channel connection, boolean http2) {
        requests.increment();
        if (http2) {
            http2Requests.increment();
        }
        Connection c = connection.attr(Connection.KEY).get();
        int e = epoch;
        if (c != null && c.usedInEpoch != e) {
            c.usedInEpoch = e;
            usedConnections.increment();
        }
    }

    /** A new HTTP/2 stream on {@code connection}; runs on the connection's event loop, as its streams do. */
    void streamOpened(Channel connection, Channel stream) {
        Connection c = connection.attr(Connection.KEY).get();
        if (c != null) {
            peakStreams.accumulateAndGet(++c.openStreams, Math::max);
            stream.closeFuture().addListener(f -> c.openStreams--);
        }
    }

    /** Everything counted so far, then a new window: peaks restart from now, no connection used yet. */
    synchronized StubServer.Stats mark() {
        StubServer.Stats s = snapshot();
        epoch++;
        usedConnections.reset();
        peakOpen.set(openConnections.get());
        peakStreams.set(0);
        return s;
    }

    StubServer.Stats snapshot() {
        return new StubServer.Stats(openConnections.get(), peakOpen.get(), accepted.sum(), usedConnections.sum(),
                peakStreams.get(), requests.sum(), http2Requests.sum(), processCpuNanos());
    }

    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
    }

    /** One line for the per-second report; called from a single thread. */
    String intervalLine() {
        long now = System.nanoTime();
        long total = requests.sum();
        double perSecond = (total - lastRequests) * 1e9 / Math.max(1, now - lastNanos);
        lastRequests = total;
        lastNanos = now;
        return String.format("stub: open=%d req/s=%.0f total=%d bad=%d faults=%d",
                openConnections.get(), perSecond, total, badRequests.sum(), faults.sum());
    }

    String totalLine() {
        return String.format("stub: stopped; total requests=%d bad=%d faults=%d",
                requests.sum(), badRequests.sum(), faults.sum());
    }
}
