package clientbench.startup;

import clientbench.adapters.Adapters;
import clientbench.api.AdapterConfig;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Request;
import clientbench.harness.record.JsonFiles;
import clientbench.harness.TrialSpec;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The main class of one fresh JVM per start ({@code CLIENT TARGET_URL REQUESTS_AFTER_FIRST IO_THREADS}): builds the
 * client through its adapter, sends one request, reads the JVM at rest, sends more, reads it again, and prints a
 * {@link ProbeReport} line after {@link #LINE_PREFIX}. Beans and JSON load after the first response, outside its time.
 */
public final class StartupProbe {

    /** What the report's line starts with: a client may print on standard output too. */
    public static final String LINE_PREFIX = "clientbench-startup ";
    /** The benchmarks' immediate response: no delay, a 5-byte body. */
    static final String PATH = "/?delayMs=0&bytes=5";
    static final int BODY_BYTES = 5;
    /** A request without an outcome this long after its send is a client that lost it: stop there. */
    private static final Duration WAIT = TrialSpec.drainFor(AdapterConfig.DEFAULT_REQUEST_TIMEOUT);
    /** The requests after the first stop here, so that a client failing each by its timeout still reports. */
    private static final Duration REQUESTS_BUDGET = Duration.ofSeconds(60);

    private StartupProbe() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: StartupProbe CLIENT TARGET_URL REQUESTS_AFTER_FIRST IO_THREADS");
            System.exit(2);
        }
        ProbeReport report = probe(args[0], URI.create(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
        System.out.println(LINE_PREFIX + JsonFiles.MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT)
                .writeValueAsString(report));
        System.out.flush();
        System.exit(0); // the adapter freed its threads (the contract); a leftover one must not keep the JVM
    }

    static ProbeReport probe(String client, URI target, int requestsAfterFirst, int ioThreads) throws InterruptedException {
        AdapterConfig config = AdapterConfig.defaults(target).withIoThreads(ioThreads); // as a benchmark's HTTP/1.1 trial
        Request request = Request.get(target, PATH, BODY_BYTES);
        long buildStart = System.nanoTime();
        HttpClientAdapter adapter;
        try {
            adapter = Adapters.create(client, config);
        } catch (RuntimeException e) {
            return ProbeReport.failed(client, millisSince(buildStart), null, "build: " + e);
        }
        double buildMs = millisSince(buildStart);
        try (adapter) {
            long sent = System.nanoTime();
            Done first = send(adapter, request);
            double firstRequestMs = millisSince(sent);
            if (first == null || first.outcome() != Outcome.OK) {
                return ProbeReport.failed(client, buildMs, firstRequestMs, "first request: " + (first == null
                        ? "no outcome within " + WAIT.toSeconds() + " s" : first.describe()));
            }
            // Read after the instant: the management classes this loads are counted, as in noop's, not timed.
            long classes = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
            JvmAtRest afterFirst = JvmAtRest.now();
            ProbeReport.Requests requests = more(adapter, request, requestsAfterFirst);
            return new ProbeReport(client, System.getProperty("java.version"), buildMs, firstRequestMs,
                    first.epochMicros(), null, classes, afterFirst, requests, JvmAtRest.now());
        }
    }

    /** {@code n} requests one at a time, within {@link #REQUESTS_BUDGET}. */
    private static ProbeReport.Requests more(HttpClientAdapter adapter, Request request, int n) throws InterruptedException {
        long deadline = System.nanoTime() + REQUESTS_BUDGET.toNanos();
        int ok = 0;
        int failed = 0;
        for (int i = 0; i < n; i++) {
            if (System.nanoTime() - deadline > 0) {
                return new ProbeReport.Requests(n, ok, failed, "the " + REQUESTS_BUDGET.toSeconds() + " s budget ran out after " + i);
            }
            Done d = send(adapter, request);
            if (d == null) {
                return new ProbeReport.Requests(n, ok, failed, "request " + (i + 1) + ": no outcome within " + WAIT.toSeconds() + " s");
            }
            if (d.outcome() == Outcome.OK) {
                ok++;
            } else {
                failed++;
            }
        }
        return new ProbeReport.Requests(n, ok, failed, null);
    }

    /** One request's outcome and the wall clock when the client completed it. */
    private record Done(Outcome outcome, int status, Throwable cause, long epochMicros) {
        String describe() {
            return outcome.label() + (status > 0 ? " (status " + status + ")" : "") + (cause == null ? "" : ": " + cause);
        }
    }

    /** Sends one request and waits for its outcome; null when none came within {@link #WAIT}. */
    private static Done send(HttpClientAdapter adapter, Request request) throws InterruptedException {
        CompletableFuture<Done> done = new CompletableFuture<>();
        adapter.send(request, (outcome, status, cause) -> done.complete(new Done(outcome, status, cause,
                ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now()))));
        try {
            return done.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return null;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause()); // never: the completion only completes it normally
        }
    }

    private static double millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e6;
    }
}
