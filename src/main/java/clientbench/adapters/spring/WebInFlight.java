package clientbench.adapters.spring;

import clientbench.adapters.support.PendingCount;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The WebClient adapter's requests in flight, kept as the bare async adapter of its engine keeps its own, so that the
 * layer's cost is not the bookkeeping's: a set (reactor, apache), a count (jdk) or nothing (jetty).
 */
interface WebInFlight {

    void started(WebExchange exchange);

    /** After its report. */
    void ended(WebExchange exchange);

    /** Closes the engine with {@code closeEngine}, and returns once every request it had is reported. */
    void close(Runnable closeEngine);

    /** What settings() records. */
    String describe();

    /** As the reactor and apache adapters: each request in a set, which close() reports and cancels before and after. */
    static WebInFlight set() {
        Set<WebExchange> all = ConcurrentHashMap.newKeySet();
        return new WebInFlight() {
            @Override
            public void started(WebExchange exchange) {
                all.add(exchange);
            }

            @Override
            public void ended(WebExchange exchange) {
                all.remove(exchange);
            }

            @Override
            public void close(Runnable closeEngine) {
                all.forEach(WebExchange::abandon);
                closeEngine.run();
                all.forEach(WebExchange::abandon); // sent while closing
            }

            @Override
            public String describe() {
                return "a concurrent set of exchanges, as the bare adapter's: close() reports and cancels what is left";
            }
        };
    }

    /** As the jdk adapter: a count, which close() waits to see at zero (5 s at most) once the client's shutdown ends all. */
    static WebInFlight count() {
        PendingCount unreported = new PendingCount();
        return new WebInFlight() {
            @Override
            public void started(WebExchange exchange) {
                unreported.add();
            }

            @Override
            public void ended(WebExchange exchange) {
                unreported.done();
            }

            @Override
            public void close(Runnable closeEngine) {
                closeEngine.run();
                unreported.awaitNone(Duration.ofSeconds(5));
            }

            @Override
            public String describe() {
                return "a PendingCount of requests unreported, as the bare adapter's: close() waits for it to reach 0";
            }
        };
    }

    /** As the jetty adapter: none, the client's stop fails every exchange it has. */
    static WebInFlight none() {
        return new WebInFlight() {
            @Override
            public void started(WebExchange exchange) {
            }

            @Override
            public void ended(WebExchange exchange) {
            }

            @Override
            public void close(Runnable closeEngine) {
                closeEngine.run();
            }

            @Override
            public String describe() {
                return "none, as the bare adapter's: the client's stop fails every exchange it has";
            }
        };
    }
}
