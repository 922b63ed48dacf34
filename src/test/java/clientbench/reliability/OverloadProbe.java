package clientbench.reliability;

import clientbench.adapters.Adapters;
import clientbench.api.AdapterConfig;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Protocol;
import clientbench.api.Request;
import clientbench.harness.record.IterationSnapshot;
import clientbench.harness.record.JsonFiles;
import clientbench.harness.LoadGenerator;
import clientbench.harness.LoadSpec;
import clientbench.testkit.Iterations;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One client offered far more than it can take, in its own JVM (small heap, {@code -XX:+ExitOnOutOfMemoryError}):
 * prints {@code RESULT} and the accounting as JSON and exits 0, or exits non-zero on an OutOfMemoryError (3) or an
 * exception that ended any thread, even if the accounting balances. Arguments: client, target URL, rate, window ms.
 */
public final class OverloadProbe {
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);
    static final Duration DRAIN = REQUEST_TIMEOUT.plusSeconds(1);
    /** Exit status for an exception that ended a thread (the JVM's own for an OutOfMemoryError is 3). */
    static final int THREAD_DIED = 4;

    public static void main(String[] args) {
        AtomicReference<Throwable> died = new AtomicReference<>();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
            died.compareAndSet(null, e);
            System.out.println("thread " + t.getName() + " died: " + e);
            e.printStackTrace(System.out);
        });
        try {
            String result = run(args[0], URI.create(args[1]), Double.parseDouble(args[2]), Long.parseLong(args[3]));
            if (died.get() != null) {
                System.exit(THREAD_DIED);
            }
            System.out.println("RESULT " + result);
            System.exit(0); // the result is out; a thread the client left behind must not hold the JVM (ForkHygieneTest checks that)
        } catch (Throwable t) {
            t.printStackTrace(System.out);
            System.exit(1);
        }
    }

    private static String run(String client, URI target, double rate, long windowMs) throws Exception {
        AdapterConfig config = new AdapterConfig(target, Protocol.HTTP1, 64, Duration.ofSeconds(2), REQUEST_TIMEOUT, 0, true);
        long t0 = System.nanoTime();
        IterationSnapshot s;
        long iterationMs;
        try (HttpClientAdapter adapter = Adapters.create(client, config)) {
            LoadGenerator g = new LoadGenerator(adapter, Request.get(target, "/", 5),
                    LoadSpec.open(rate, 1_000, LoadSpec.Backpressure.PARK, DRAIN));
            long i0 = System.nanoTime();
            s = Iterations.run(g, windowMs);
            iterationMs = (System.nanoTime() - i0) / 1_000_000;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("client", client);
        out.put("scheduled", s.scheduled());
        out.put("sent", s.sent());
        out.put("dropped", s.dropped());
        out.put("unsent", s.unsent());
        out.put("expired", s.expiredAtDrain());
        for (Outcome o : Outcome.values()) {
            out.put(o.label(), s.count(o));
        }
        out.put("achievedPerSecond", Math.round(s.perSecond(s.sent())));
        out.put("lagP99Us", s.lag().getValueAtPercentile(99));
        out.put("latencyP99Us", s.latency().getValueAtPercentile(99));
        out.put("iterationMs", iterationMs);
        out.put("elapsedMs", (System.nanoTime() - t0) / 1_000_000);
        out.put("plannedMs", windowMs + LoadSpec.DEFAULT_LATE_SEND_GRACE.toMillis() + DRAIN.toMillis());
        return JsonFiles.MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(out);
    }
}
