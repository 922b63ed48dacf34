package clientbench.adapters.apache;

import clientbench.api.Completion;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.adapters.support.DeadlineTimer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hc.client5.http.async.methods.AbstractBinResponseConsumer;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;
import org.apache.hc.core5.http.nio.CapacityChannel;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * One Apache async request: its response consumer (counting body bytes, keeping none), its callback,
 * and its deadline. Reports once, whichever of the I/O reactor, the deadline or close() ends it first.
 */
final class ApacheExchange implements FutureCallback<Long> {

    final ByteCounter counter = new ByteCounter(this::headArrived);
    /** What the client is given: the counter, or for a body left open a consumer that stops at the first window. */
    final AsyncResponseConsumer<Long> consumer;
    private final clientbench.api.Request request;
    private final Completion completion;
    private final Set<ApacheExchange> inFlight;
    private final AtomicBoolean done = new AtomicBoolean();
    private volatile boolean timedOut;
    private volatile ScheduledFuture<?> deadline;
    private volatile Future<Long> future;

    /** The caller adds it to {@code inFlight}; it removes itself when it reports. */
    ApacheExchange(clientbench.api.Request request, Completion completion, Set<ApacheExchange> inFlight) {
        this.request = request;
        this.completion = completion;
        this.inFlight = inFlight;
        this.consumer = request.leavesBodyOpen() ? new LeftOpen(counter) : counter;
    }

    /**
     * Cancels the exchange when {@code timeout} passes; the cancellation is reported as TIMEOUT. No {@code deadlines}:
     * the client's own responseTimeout ends it.
     */
    void startDeadline(Future<Long> exchange, DeadlineTimer deadlines, Duration timeout) {
        future = exchange;
        if (deadlines == null) {
            return;
        }
        deadline = deadlines.schedule(timeout, () -> {
            timedOut = true;
            exchange.cancel(true);
        });
        if (done.get()) { // finished before the deadline was set: do not leave it queued
            deadline.cancel(false);
        }
    }

    @Override
    public void completed(Long bytes) {
        // A body the caller leaves unread is still read in full, as SimpleResponseConsumer (the async API's own
        // consumer) reads it whether or not the caller looks: the connection stays in the pool.
        long read = request.abandonsBody() ? -1 : bytes;
        finish(Outcomes.ofResponse(request, counter.status, read), counter.status, read, null);
    }

    @Override
    public void failed(Exception e) {
        finish(ApacheClients.outcomeOf(e), 0, e);
    }

    private void headArrived() {
        if (request.leavesBodyOpen()) { // reported at its head; the exchange stays open, as nothing reads its body
            finish(Outcomes.ofResponse(request, counter.status, -1), counter.status, -1, null);
        }
    }

    @Override
    public void cancelled() {
        if (timedOut) {
            finish(Outcome.TIMEOUT, 0, new TimeoutException("request timeout passed"));
        } else {
            finish(Outcome.OTHER, 0, new CancellationException("exchange cancelled"));
        }
    }

    /** What the caller would have closed: the body left open, so the exchange and its connection end. */
    void closeLeftOpen() {
        if (consumer instanceof LeftOpen open) {
            open.close();
        }
        Future<Long> f = future;
        if (f != null) {
            f.cancel(true);
        }
    }

    /**
     * For close(): reports the exchange as ended by the close, then cancels it, which frees its connection or
     * its place in the pool's queue (a client closed gracefully would otherwise let it run to its end, and a
     * closed client never reports the exchanges it still had).
     */
    void abandon() {
        failed(new IOException("Apache HttpAsyncClient closed with the request in flight"));
        Future<Long> f = future;
        if (f != null) {
            f.cancel(true);
        }
    }

    private void finish(Outcome outcome, int status, Throwable cause) {
        finish(outcome, status, -1, cause);
    }

    private void finish(Outcome outcome, int status, long bodyBytes, Throwable cause) {
        if (done.compareAndSet(false, true)) {
            inFlight.remove(this);
            ScheduledFuture<?> d = deadline;
            if (d != null) {
                d.cancel(false);
            }
            completion.complete(outcome, status, bodyBytes, cause);
        }
    }

    /**
     * A body left open: the counter's, but no capacity granted past the connection's first window, as a reactive body
     * publisher never subscribed. Closed, it grants capacity and fails the next data, which ends the exchange.
     */
    static final class LeftOpen implements AsyncResponseConsumer<Long> {
        private final ByteCounter counter;
        private volatile CapacityChannel channel;
        private volatile boolean closed;

        LeftOpen(ByteCounter counter) {
            this.counter = counter;
        }

        void close() {
            closed = true;
            CapacityChannel c = channel;
            if (c != null) {
                try {
                    c.update(Integer.MAX_VALUE);
                } catch (IOException e) {
                    // the connection is gone already
                }
            }
        }

        @Override
        public void consumeResponse(HttpResponse response, EntityDetails entity, HttpContext context,
                                    FutureCallback<Long> resultCallback) throws HttpException, IOException {
            counter.consumeResponse(response, entity, context, resultCallback);
        }

        @Override
        public void informationResponse(HttpResponse response, HttpContext context) throws HttpException, IOException {
            counter.informationResponse(response, context);
        }

        @Override
        public void updateCapacity(CapacityChannel capacityChannel) throws IOException {
            channel = capacityChannel;
            if (closed) {
                capacityChannel.update(Integer.MAX_VALUE);
            }
        }

        @Override
        public void consume(ByteBuffer src) throws IOException {
            if (closed) {
                throw new IOException("the body left open was closed");
            }
            counter.consume(src);
        }

        @Override
        public void streamEnd(List<? extends Header> trailers) throws HttpException, IOException {
            counter.streamEnd(trailers);
        }

        @Override
        public void failed(Exception cause) {
            counter.failed(cause);
        }

        @Override
        public void releaseResources() {
            counter.releaseResources();
        }
    }

    /** Counts the body's bytes as they arrive, keeping none. */
    static final class ByteCounter extends AbstractBinResponseConsumer<Long> {
        private final Runnable headArrived;
        private volatile int status;
        private long bytes;

        ByteCounter(Runnable headArrived) {
            this.headArrived = headArrived;
        }

        @Override
        protected void start(HttpResponse response, ContentType contentType) {
            status = response.getCode();
            headArrived.run();
        }

        @Override
        protected int capacityIncrement() {
            return Integer.MAX_VALUE;
        }

        @Override
        protected void data(ByteBuffer data, boolean endOfStream) {
            bytes += data.remaining();
            data.position(data.limit());
        }

        @Override
        protected Long buildResult() {
            return bytes;
        }

        @Override
        public void releaseResources() {
        }
    }
}
