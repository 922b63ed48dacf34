package clientbench.behaviour;

import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Request;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/** A case's requests: each one sent, its report as the case sees it, and the bounded waits every case is made of. */
final class CaseRequests {

    private CaseRequests() {
    }

    /**
     * The outcome and when it came, from the send; {@code outcome} null: none came within the wait. {@code cause}: the
     * client's exception in a line, for the record of what it said.
     */
    record Done(Outcome outcome, int status, long elapsedNanos, String cause) {
        double millis() {
            return elapsedNanos / 1e6;
        }

        boolean reported() {
            return outcome != null;
        }
    }

    /**
     * A request sent: when, its key (the stub counts it by that; null: none), and its first report (a second is the
     * contract test's business).
     */
    record Call(long startNanos, String key, CompletableFuture<Done> reported) {
        /** Its report, or null while there is none. */
        Done now() {
            return reported.getNow(null);
        }
    }

    static Call send(HttpClientAdapter adapter, Request request) {
        CompletableFuture<Done> done = new CompletableFuture<>();
        String key = request.headers().stream().filter(h -> h.name().equals(CaseContext.KEY)).map(Request.Header::value)
                .findFirst().orElse(null);
        long start = System.nanoTime();
        adapter.send(request, (outcome, status, cause) -> done.complete(new Done(outcome, status, System.nanoTime() - start,
                cause == null ? null : line(cause))));
        return new Call(start, key, done);
    }

    /** Sends and waits at most {@code bound}; an unreported request is a Done with a null outcome. */
    static Done sendAndWait(HttpClientAdapter adapter, Request request, Duration bound) throws InterruptedException {
        return await(send(adapter, request), bound);
    }

    /** Its report within {@code bound}; else a Done with a null outcome and the time since its send, a lower bound. */
    static Done await(Call call, Duration bound) throws InterruptedException {
        try {
            return call.reported().get(bound.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return new Done(null, 0, System.nanoTime() - call.startNanos(), null);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause()); // never: the completion only completes it normally
        }
    }

    /** Waits for every call until one shared deadline, {@code bound} from now. */
    static List<Done> awaitAll(List<Call> calls, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        List<Done> out = new ArrayList<>();
        for (Call c : calls) {
            out.add(await(c, Duration.ofNanos(Math.max(0, deadline - System.nanoTime()))));
        }
        return out;
    }

    /**
     * Waits until every call is reported, or until each one whose request the stub read ({@code read}: the keys it read)
     * is reported and nothing moved for {@code quiet} (no request reached the stub, none was reported): the rest wait on
     * the client (a slot, a queue), as no loopback exchange stalls that long. At most {@code bound}. Each call's report
     * then, or a Done with a null outcome and the time since its send, a lower bound.
     */
    static List<Done> awaitSettled(List<Call> calls, Supplier<Set<String>> read, Duration quiet, Duration bound)
            throws InterruptedException {
        untilSettled(() -> calls.stream().allMatch(c -> c.now() != null), () -> {
            Set<String> keys = read.get();
            return calls.stream().filter(c -> c.now() == null).noneMatch(c -> c.key() != null && keys.contains(c.key()));
        }, () -> {
            Set<String> keys = read.get();
            return calls.stream().filter(c -> c.now() != null || c.key() != null && keys.contains(c.key())).count()
                    + calls.stream().filter(c -> c.now() != null).count();
        }, quiet, bound);
        List<Done> out = new ArrayList<>();
        for (Call c : calls) {
            out.add(await(c, Duration.ZERO));
        }
        return out;
    }

    /**
     * Blocks until {@code done} holds, or {@code resting} holds and {@code progress} has not moved for {@code quiet}, or
     * {@code bound} passed: a wait that ends on what was counted. The quiet is counted in looks 5 ms apart, so a pause
     * of the whole JVM (a collection, a starved machine) is no quiet: every thread stood still through it.
     */
    static void untilSettled(BooleanSupplier done, BooleanSupplier resting, LongSupplier progress, Duration quiet,
                             Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        long quietLooks = quiet.toMillis() / LOOK_MS;
        long still = 0;
        long last = progress.getAsLong();
        while (!done.getAsBoolean() && System.nanoTime() - deadline < 0) {
            long now = progress.getAsLong();
            still = now == last ? still + 1 : 0;
            last = now;
            if (still >= quietLooks && resting.getAsBoolean()) {
                return;
            }
            Thread.sleep(LOOK_MS);
        }
    }

    private static final long LOOK_MS = 5;

    /** Outcomes by class ({@code ok}, {@code timeout}, ...; {@code unreported}: none within the wait), in name order. */
    static Map<String, Integer> classes(List<Done> done) {
        Map<String, Integer> out = new TreeMap<>();
        done.forEach(d -> out.merge(d.reported() ? d.outcome().label() : "unreported", 1, Integer::sum));
        return out;
    }

    /** Per failure class, what the client said the first time: its exception, cause by cause, in one line. */
    static Map<String, String> said(List<Done> done) {
        Map<String, String> out = new TreeMap<>();
        done.stream().filter(d -> d.reported() && d.cause() != null)
                .forEach(d -> out.putIfAbsent(d.outcome().label(), d.cause()));
        return out;
    }

    /** An exception and its causes in one line, at most {@value #CAUSE_CHARS} characters. */
    static String line(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (Throwable c : clientbench.api.Outcomes.causes(t)) {
            b.append(b.isEmpty() ? "" : " <- ").append(c);
        }
        String s = b.toString().replaceAll("\\s+", " ");
        return s.length() <= CAUSE_CHARS ? s : s.substring(0, CAUSE_CHARS - 3) + "...";
    }

    static final int CAUSE_CHARS = 300;

    /** Those that failed otherwise than by the status the case asked for (and every unreported one). */
    static Map<String, Integer> failures(List<Done> done) {
        Map<String, Integer> out = classes(done);
        out.remove(Outcome.OK.label());
        out.remove(Outcome.STATUS.label());
        return out;
    }

    /**
     * How late each request's timeout fired: its report's time less {@code timeout}, for those reported as timeouts (or
     * as connect failures: the JDK reports its request timeout so when it fires while connecting).
     */
    static List<Double> lateMs(List<Done> done, Duration timeout) {
        return done.stream().filter(d -> d.outcome() == Outcome.TIMEOUT || d.outcome() == Outcome.CONNECT)
                .map(d -> d.millis() - timeout.toMillis()).toList();
    }

    /** The {@code q} quantile (nearest rank) of {@code values}; NaN when there are none. */
    static double quantile(List<Double> values, double q) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = values.stream().sorted().toList();
        int rank = (int) Math.ceil(q * sorted.size());
        return sorted.get(Math.min(sorted.size() - 1, Math.max(0, rank - 1)));
    }

    /** Blocks until {@code condition} holds or {@code bound} passes; whether it held. */
    static boolean until(java.util.function.BooleanSupplier condition, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }
}
