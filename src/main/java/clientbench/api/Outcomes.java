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

    /** A response arrived: 2xx with the expected body length is ok, non-2xx is status, a short body is other. */
    public static Outcome ofResponse(int status, long bodyBytes, long expectedBodyBytes) {
        if (status < 200 || status > 299) {
            return Outcome.STATUS;
        }
        if (expectedBodyBytes >= 0 && bodyBytes != expectedBodyBytes) {
            return Outcome.OTHER;
        }
        return Outcome.OK;
    }

    /**
     * The failure class of an exception, looking through wrappers (ExecutionException, CompletionException
     * and the like) to the first cause that says what happened. Adapters check their client's own
     * exception types first and fall back to this.
     */
    public static Outcome ofThrowable(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
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
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof IOException) {
                return Outcome.RESET;
            }
        }
        return Outcome.OTHER;
    }
}
