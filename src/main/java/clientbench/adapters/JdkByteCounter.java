package clientbench.adapters;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.Flow;

/** Reads a JDK client response body to the end, counting its bytes without keeping them. */
final class JdkByteCounter implements Flow.Subscriber<List<ByteBuffer>> {

    /** One new counter per response; the response's body is the byte count. */
    static final HttpResponse.BodyHandler<Long> HANDLER =
            info -> HttpResponse.BodySubscribers.fromSubscriber(new JdkByteCounter(), JdkByteCounter::count);

    private long count;

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        for (ByteBuffer b : buffers) {
            count += b.remaining();
        }
    }

    @Override
    public void onError(Throwable failure) {
        // the client completes the exchange exceptionally with the same failure
    }

    @Override
    public void onComplete() {
        // the finisher reads the count
    }

    private long count() {
        return count;
    }
}
