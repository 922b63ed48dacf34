package clientbench.adapters.ahc;

import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.adapters.support.AdapterSettings;
import clientbench.adapters.support.AsyncPermits;
import clientbench.adapters.support.Http2Ramp;
import clientbench.adapters.support.NoDelayTally;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpHeaders;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.asynchttpclient.AsyncHandler;
import org.asynchttpclient.HttpResponseBodyPart;
import org.asynchttpclient.HttpResponseStatus;
import org.asynchttpclient.exception.PoolAlreadyClosedException;
import org.asynchttpclient.exception.TooManyConnectionsException;
import org.asynchttpclient.exception.TooManyConnectionsPerHostException;
import javax.net.ssl.SSLSession;

/**
 * One AsyncHttpClient request: counts body bytes as they arrive, keeping none, and reports once,
 * whichever of the timer, the event loop or the adapter's close() ends it first.
 */
final class AhcExchange implements AsyncHandler<Void> {

    private final AdapterConfig config;
    private final clientbench.api.Request request;
    private final Completion completion;
    private final Set<AhcExchange> inFlight;
    private final AsyncPermits permits;
    private final Http2Ramp ramp;
    private final Observed observed;
    private final AtomicBoolean done = new AtomicBoolean();
    private volatile int status;
    private volatile int majorVersion;
    private long bytes;

    /**
     * The caller adds it to {@code inFlight}; it removes itself when it reports, and then returns its permit
     * ({@code permits} null: none taken).
     */
    AhcExchange(AdapterConfig config, clientbench.api.Request request, Completion completion, Set<AhcExchange> inFlight,
                AsyncPermits permits, Http2Ramp ramp, Observed observed) {
        this.config = config;
        this.request = request;
        this.completion = completion;
        this.inFlight = inFlight;
        this.permits = permits;
        this.ramp = ramp;
        this.observed = observed;
    }

    /** What the first connection was, read from the live client: channel class and, over TLS, the handshake. */
    static final class Observed {
        volatile String value;
        /** TCP_NODELAY read from each connection's channel as it connected. */
        final NoDelayTally noDelay = new NoDelayTally("as it connected, from its Netty channel");
    }

    @Override
    public void onTcpConnectSuccess(InetSocketAddress remoteAddress, Channel connection) {
        observed.noDelay.count(() -> connection.config().getOption(ChannelOption.TCP_NODELAY));
        if (observed.value == null) {
            observed.value = connection.getClass().getSimpleName();
        }
    }

    @Override
    public void onTlsHandshakeSuccess(SSLSession session) {
        String seen = observed.value;
        if (seen == null || !seen.contains(",")) {
            observed.value = (seen == null ? "" : seen + ", ") + session.getProtocol() + " " + session.getCipherSuite()
                    + ", session " + session.getClass().getName();
        }
    }

    @Override
    public State onStatusReceived(HttpResponseStatus responseStatus) {
        status = responseStatus.getStatusCode();
        majorVersion = responseStatus.getProtocolMajorVersion();
        ramp.onResponse(majorVersion == 2);
        return State.CONTINUE;
    }

    @Override
    public State onHeadersReceived(HttpHeaders headers) {
        return request.abandonsBody() ? State.ABORT : State.CONTINUE; // the caller leaves the body unread
    }

    @Override
    public State onBodyPartReceived(HttpResponseBodyPart bodyPart) {
        bytes += bodyPart.length();
        return State.CONTINUE;
    }

    @Override
    public void onThrowable(Throwable t) {
        if (finish()) {
            completion.complete(outcomeOf(t), 0, t);
        }
    }

    @Override
    public Void onCompleted() {
        if (finish()) {
            if ((majorVersion == 2) != AdapterSettings.http2(config)) { // ALPN chose http/1.1 although h2 was offered
                completion.complete(Outcome.OTHER, status, AdapterSettings.wrongVersion(config, "HTTP/" + majorVersion));
            } else {
                completion.complete(Outcomes.ofResponse(request, status, bytes), status, bytes, null);
            }
        }
        return null;
    }

    /** For close(): a closed AsyncHttpClient never reports the requests it still had. */
    void abandon() {
        onThrowable(new IOException("AsyncHttpClient closed with the request in flight"));
    }

    private boolean finish() {
        if (done.compareAndSet(false, true)) {
            inFlight.remove(this);
            if (permits != null) {
                permits.release();
            }
            return true;
        }
        return false;
    }

    private static Outcome outcomeOf(Throwable t) {
        if (t instanceof TooManyConnectionsException || t instanceof TooManyConnectionsPerHostException
                || t instanceof PoolAlreadyClosedException) {
            return Outcome.REJECTED;
        }
        return Outcomes.ofThrowable(t);
    }
}
