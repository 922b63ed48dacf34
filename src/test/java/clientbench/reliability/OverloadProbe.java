package clientbench.reliability;

import clientbench.adapters.Adapters;
import clientbench.api.AdapterConfig;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Protocol;
import clientbench.api.Request;
import clientbench.harness.IterationSnapshot;
import clientbench.harness.LoadGenerator;
import clientbench.harness.LoadSpec;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One client offered far more than it can take, in a JVM of its own (the test starts it with a small
 * heap): prints one JSON line with the accounting, or dies (an OutOfMemoryError exits non-zero).
 * Arguments: client, target URL, rate, window ms.
 */
public final class OverloadProbe {
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);
    static final Duration DRAIN = REQUEST_TIMEOUT.plusSeconds(1);

    public static void main(String[] args) throws Exception {
        String client = args[0];
        URI target = URI.create(args[1]);
        double rate = Double.parseDouble(args[2]);
        long windowMs = Long.parseLong(args[3]);
        AdapterConfig config = new AdapterConfig(target, Protocol.HTTP1, 64, Duration.ofSeconds(2), REQUEST_TIMEOUT, 0, true);
        long t0 = System.nanoTime();
        IterationSnapshot s;
        try (HttpClientAdapter adapter = Adapters.create(client, config)) {
            LoadGenerator g = new LoadGenerator(adapter, Request.get(target, "/", 5),
                    LoadSpec.open(rate, 1_000, LoadSpec.Backpressure.PARK, DRAIN));
            s = Loops.iteration(g, windowMs);
        }
        long elapsedMs = (System.nanoTime() - t0) / 1_000_000;
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("client", client);
        out.put("scheduled", s.scheduled());
        out.put("sent", s.sent());
        out.put("dropped", s.dropped());
        out.put("unsent", s.unsent());
        for (Outcome o : Outcome.values()) {
            out.put(o.label(), s.count(o));
        }
        out.put("achievedPerSecond", Math.round(s.perSecond(s.sent())));
        out.put("lagP99Us", s.lag().getValueAtPercentile(99));
        out.put("latencyP99Us", s.latency().getValueAtPercentile(99));
        out.put("elapsedMs", elapsedMs);
        out.put("plannedMs", windowMs + LoadSpec.DEFAULT_LATE_SEND_GRACE.toMillis() + DRAIN.toMillis());
        System.out.println("RESULT " + clientbench.harness.JsonFiles.MAPPER.writer().without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
                .writeValueAsString(out));
        System.exit(0);
    }
}
