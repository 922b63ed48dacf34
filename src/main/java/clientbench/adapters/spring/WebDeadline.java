package clientbench.adapters.spring;

import clientbench.adapters.support.DeadlineTimer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Where a WebClient request's timeout runs: the same timer as the bare async adapter of its engine, reached through
 * Spring's API. {@code left} is the request timeout less the time queued in the adapter.
 */
interface WebDeadline {

    /** The request as it is sent: where the timeout is the native request's own (Jetty's). */
    default WebClient.RequestHeadersSpec<?> onRequest(WebClient.RequestHeadersSpec<?> spec, Duration left) {
        return spec;
    }

    /** The answer subscribed to: where the timeout is Reactor's operator. */
    default <T> Mono<T> onAnswer(Mono<T> answer, Duration left) {
        return answer;
    }

    /** Once subscribed: where the timeout is the adapter's own timer thread. */
    default void onStart(WebExchange exchange, Duration left) {
    }

    default void close() {
    }

    /** The client's or the connector's own, set once on it (JDK, and every library timeout): nothing per request. */
    static WebDeadline inTheClient() {
        return new WebDeadline() {
        };
    }

    /** Jetty's total {@code Request.timeout} on the native request, as the jetty adapter sets it. */
    static WebDeadline jettyRequest() {
        return new WebDeadline() {
            @Override
            public WebClient.RequestHeadersSpec<?> onRequest(WebClient.RequestHeadersSpec<?> spec, Duration left) {
                long millis = Math.max(1, left.toMillis());
                return spec.httpRequest(r -> r.<org.eclipse.jetty.client.Request>getNativeRequest()
                        .timeout(millis, TimeUnit.MILLISECONDS));
            }
        };
    }

    /** {@code Mono.timeout} on the engine's own loops, as the reactor adapter's. */
    static WebDeadline monoTimeout(Scheduler loops) {
        return new WebDeadline() {
            @Override
            public <T> Mono<T> onAnswer(Mono<T> answer, Duration left) {
                return answer.timeout(left, loops);
            }
        };
    }

    /** A {@link DeadlineTimer} of the adapter's, scheduled and cancelled per request, as the apache adapter's. */
    static WebDeadline timer(String name) {
        DeadlineTimer timer = new DeadlineTimer(name + "-deadline");
        return new WebDeadline() {
            @Override
            public void onStart(WebExchange exchange, Duration left) {
                exchange.deadline(timer.schedule(left, () -> exchange.timedOut("request timeout passed")));
            }

            @Override
            public void close() {
                timer.close();
            }
        };
    }
}
