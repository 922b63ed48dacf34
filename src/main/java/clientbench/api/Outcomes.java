package clientbench.api;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;

/** Shared classification, so that every adapter maps the same situation to the same outcome. */
public final class Outcomes {

    private Outcomes() {
    }

    /**
     * A response arrived: the request's expected status (any 2xx when it names none) with the expected body
     * length (any, when it expects none) is ok; another status is {@code STATUS}; a body of the wrong length
     * is {@code OTHER}.
     */
    public static Outcome ofResponse(Request request, int status, long bodyBytes) {
        boolean statusOk = request.expectedStatus() == 0 ? status >= 200 && status <= 299 : status == request.expectedStatus();
        if (!statusOk) {
            return Outcome.STATUS;
        }
        if (request.expectedBodyBytes() >= 0 && bodyBytes != request.expectedBodyBytes()) {
            return Outcome.OTHER;
        }
        return Outcome.OK;
    }

    /** The cause chain of {@code t}, {@code t} first, each exception once (a cycle ends the walk). */
    public static java.util.List<Throwable> causes(Throwable t) {
        java.util.List<Throwable> chain = new java.util.ArrayList<>();
        for (Throwable c = t; c != null && !chain.contains(c); c = c.getCause()) {
            chain.add(c);
        }
        return chain;
    }

    /** The first exception in {@code t}'s cause chain of this type, or null. */
    public static <T extends Throwable> T cause(Throwable t, Class<T> type) {
        for (Throwable c : causes(t)) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }

    /**
     * The failure class of an exception, looking through wrappers (ExecutionException, CompletionException
     * and the like) to the first cause that says what happened. Adapters check their client's own
     * exception types first and fall back to this.
     */
    public static Outcome ofThrowable(Throwable t) {
        for (Throwable c : causes(t)) {
            if (c instanceof HttpConnectTimeoutException || c instanceof ConnectException
                    || c instanceof NoRouteToHostException || c instanceof UnknownHostException
                    || c instanceof UnresolvedAddressException) {
                return Outcome.CONNECT;
            }
            if (c instanceof HttpTimeoutException || c instanceof TimeoutException
                    || c instanceof SocketTimeoutException) {
                return Outcome.TIMEOUT;
            }
            if (c instanceof RejectedExecutionException) {
                return Outcome.REJECTED;
            }
            if (c instanceof InterruptedIOException && "timeout".equals(c.getMessage())) {
                return Outcome.TIMEOUT; // OkHttp's call timeout
            }
        }
        for (Throwable c : causes(t)) {
            if (c instanceof IOException) {
                return Outcome.RESET;
            }
        }
        return Outcome.OTHER;
    }
}
