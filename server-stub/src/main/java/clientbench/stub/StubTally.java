package clientbench.stub;

import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the stub saw of the clients' misbehaviour, counted where it happened: each request by its {@value #KEY_HEADER}
 * (the same logical request sent twice counts twice), the connections its habits closed, the streams a GOAWAY refused,
 * the answers whose head it padded ({@code headerBytes}), the requests it held at once, and HTTP/2 flow control: the
 * WINDOW_UPDATE frames it read and wrote, the request bodies it read slowly ({@code readPauseMs}), the windows the
 * client overran. Since start; the keys kept are bounded, the rest only counted.
 */
final class StubTally {

    /** The header a client's logical request is named by (the IETF draft's idempotency key). */
    static final String KEY_HEADER = "idempotency-key";
    /** Distinct keys kept; beyond, a request with a new key is only counted in {@code untrackedKeys}. */
    static final int MAX_KEYS = 100_000;

    private final ConcurrentHashMap<String, AtomicInteger> keys = new ConcurrentHashMap<>();
    private final LongAdder untrackedKeys = new LongAdder();
    final LongAdder idleCloses = new LongAdder();
    final LongAdder raceCloses = new LongAdder();
    final LongAdder closeEveryCloses = new LongAdder();
    final LongAdder goAways = new LongAdder();
    final LongAdder refusedStreams = new LongAdder();
    final LongAdder largeHeads = new LongAdder();
    final LongAdder windowUpdatesIn = new LongAdder();
    final LongAdder windowUpdatesOut = new LongAdder();
    /** The pauses paced request bodies were read with ({@code readPauseMs}), the bodies read to the end, their bytes. */
    final LongAdder readPauses = new LongAdder();
    final LongAdder pausedBodies = new LongAdder();
    final LongAdder pausedBodyBytes = new LongAdder();
    /** HTTP/2 streams and connections the client overran: DATA past the window the stub had granted. */
    final LongAdder flowControlErrors = new LongAdder();
    /** HTTP/2 answers past the default window written and not yet sent in full (or failed): held by a closed window. */
    final AtomicInteger answersUnsent = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger peakInFlight = new AtomicInteger();

    /** A request's head was read carrying {@code key} (null: none). */
    void read(String key) {
        if (key == null) {
            return;
        }
        AtomicInteger n = keys.get(key);
        if (n == null && keys.size() >= MAX_KEYS) {
            untrackedKeys.increment();
            return;
        }
        (n != null ? n : keys.computeIfAbsent(key, k -> new AtomicInteger())).incrementAndGet();
    }

    /** A request the stub now holds: read, not yet answered or given up. */
    void held() {
        peakInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
    }

    /** The most held at once counts again from those held now; call it while no request arrives. */
    void restartPeakInFlight() {
        peakInFlight.set(inFlight.get());
    }

    /** {@code n} held requests answered, faulted or gone with their connection. */
    void released(int n) {
        if (n > 0) {
            inFlight.addAndGet(-n);
        }
    }

    /** An error on a connection or stream: counted when it is the client's FLOW_CONTROL_ERROR. */
    void protocolError(Throwable cause) {
        if (cause instanceof Http2Exception e && e.error() == Http2Error.FLOW_CONTROL_ERROR) {
            flowControlErrors.increment();
        }
    }

    /** The times each key starting with {@code prefix} was seen, by key. */
    Map<String, Integer> seen(String prefix) {
        Map<String, Integer> out = new TreeMap<>();
        keys.forEach((k, n) -> {
            if (k.startsWith(prefix)) {
                out.put(k, n.get());
            }
        });
        return out;
    }

    StubServer.Tally snapshot() {
        return new StubServer.Tally(idleCloses.sum(), raceCloses.sum(), closeEveryCloses.sum(), goAways.sum(),
                refusedStreams.sum(), largeHeads.sum(), inFlight.get(), peakInFlight.get(), keys.size(), untrackedKeys.sum(),
                windowUpdatesIn.sum(), windowUpdatesOut.sum(), readPauses.sum(), pausedBodies.sum(),
                pausedBodyBytes.sum(), flowControlErrors.sum(), answersUnsent.get());
    }
}
