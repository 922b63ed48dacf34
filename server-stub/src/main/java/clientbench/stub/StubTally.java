package clientbench.stub;

import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the stub saw of the clients' misbehaviour, counted where it happened: each request by its {@value #KEY_HEADER}
 * (the same logical request sent twice counts twice), and apart the requests a habit closed the connection under (the
 * idle race) or that came on a connection after the stub's FIN, the connections its habits closed, the streams a GOAWAY refused,
 * the answers whose head it padded ({@code headerBytes}), the requests it held at once, and HTTP/2 flow control: the
 * WINDOW_UPDATE frames it read and wrote, the request bodies it read slowly ({@code readPauseMs}), the windows the
 * client overran. Since start; the keys kept are bounded, the rest only counted.
 */
final class StubTally {

    /** The header a client's logical request is named by (the IETF draft's idempotency key). */
    static final String KEY_HEADER = "idempotency-key";

    /** Each request's head read and processed (a race's close under it included: the client cannot know which). */
    final KeyCounts read = new KeyCounts();
    /** Requests whose connection the idle race closed as their head arrived. */
    final KeyCounts raceClosed = new KeyCounts();
    /** Requests that came on a connection after the stub's FIN, refused unread as a closed socket refuses them. */
    final KeyCounts afterFin = new KeyCounts();
    final LongAdder idleCloses = new LongAdder();
    /** Idle closes armed and not yet done nor called off: while none is, every idle connection's close went out. */
    final AtomicInteger idleClosesPending = new AtomicInteger();
    final LongAdder raceCloses = new LongAdder();
    /** Request heads that came on a connection after the stub's FIN (each one closes it by reset). */
    final LongAdder afterFinArrivals = new LongAdder();
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

    StubServer.Tally snapshot() {
        return new StubServer.Tally(idleCloses.sum(), raceCloses.sum(), closeEveryCloses.sum(), goAways.sum(),
                refusedStreams.sum(), largeHeads.sum(), inFlight.get(), peakInFlight.get(), read.size(), read.untracked(),
                windowUpdatesIn.sum(), windowUpdatesOut.sum(), readPauses.sum(), pausedBodies.sum(),
                pausedBodyBytes.sum(), flowControlErrors.sum(), answersUnsent.get(), afterFinArrivals.sum(),
                idleClosesPending.get());
    }
}
