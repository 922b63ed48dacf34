package clientbench.adapters.ahc;

import clientbench.adapters.support.OpenBodies;
import clientbench.api.Completion;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import io.netty.handler.codec.http.HttpHeaders;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.asynchttpclient.HttpResponseStatus;
import org.asynchttpclient.handler.BodyDeferringAsyncHandler;

/**
 * A request whose body the caller leaves open, in AsyncHttpClient's one pull-style API: a
 * {@link BodyDeferringAsyncHandler} writing into a pipe whose {@code BodyDeferringInputStream} is never read nor
 * closed. Reported at the head; the pipe fills and the handler's writes then block the I/O thread, as for its users.
 */
final class AhcLeftOpen extends BodyDeferringAsyncHandler {

    private final Request request;
    private final Completion completion;
    private final PipedInputStream pipe;
    private final AtomicBoolean reported = new AtomicBoolean();
    private volatile int status;

    private AhcLeftOpen(Request request, Completion completion, PipedOutputStream out, PipedInputStream pipe) {
        super(out);
        this.request = request;
        this.completion = completion;
        this.pipe = pipe;
    }

    static AhcLeftOpen create(Request request, Completion completion) {
        PipedInputStream pipe = new PipedInputStream(); // the handler's documented use: a pipe of the default size
        try {
            return new AhcLeftOpen(request, completion, new PipedOutputStream(pipe), pipe);
        } catch (IOException e) {
            throw new IllegalStateException("a fresh pipe cannot fail to connect", e);
        }
    }

    /** What the caller would have closed: the pipe (the handler's next write fails) and the request. */
    void holdIn(OpenBodies leftOpen, Future<?> request) {
        leftOpen.hold(() -> {
            pipe.close();
            request.cancel(true);
        });
    }

    @Override
    public State onStatusReceived(HttpResponseStatus responseStatus) {
        status = responseStatus.getStatusCode();
        return super.onStatusReceived(responseStatus);
    }

    @Override
    public State onHeadersReceived(HttpHeaders headers) {
        State next = super.onHeadersReceived(headers);
        if (reported.compareAndSet(false, true)) {
            completion.complete(Outcomes.ofResponse(request, status, -1), status, -1, null);
        }
        return next;
    }

    @Override
    public void onThrowable(Throwable t) {
        super.onThrowable(t);
        if (reported.compareAndSet(false, true)) { // failed before its head
            completion.complete(Outcomes.ofThrowable(t), 0, t);
        }
    }
}
