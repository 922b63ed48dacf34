package clientbench.jmh;

import clientbench.api.Outcome;
import clientbench.harness.Flag;
import clientbench.harness.IterationSnapshot;
import clientbench.harness.Probes;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.results.ThroughputResult;
import org.openjdk.jmh.runner.IterationType;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Turns each iteration's {@link IterationSnapshot} into JMH results: the primary score and the secondary
 * metrics. A profiler, rather than {@code @AuxCounters}, because aux counters are plain numbers that JMH
 * averages across iterations and forks (wrong for percentiles) and must be Java identifiers (no
 * {@code fail.timeout}). {@link Main} adds it to every run of {@code java -jar benchmarks.jar}.
 *
 * <p>The primary score is successful requests per second over the exact window ({@code ok}), not JMH's
 * count of benchmark calls (which is the offered rate in the open model and counts failures in the closed
 * one). How, in JMH 1.37: {@code BenchmarkHandler.runIteration} adds the benchmark threads' primary results
 * to the {@code IterationResult}, then adds what each profiler's {@code afterIteration} returns; the
 * iteration's primary result aggregates every primary result it holds with the thread aggregator, which
 * for {@code ThroughputResult} sums the scores (labels and units must agree). So this profiler returns one
 * more primary {@code ThroughputResult}, same label and unit, scoring {@code ok/s - JMH's own score}: JMH's
 * table, its per-iteration lines and its JSON then headline ok/s exactly. Benchmarks in another mode
 * (the self-benchmark's {@code overhead}, time per call) keep JMH's score. The offered rate stays as a
 * check, {@code scheduled} per second.
 *
 * <p>Metrics (names are API: the notebook reads them):
 * <ul>
 *   <li>rates over the exact window (the iteration time from its first send), ops/s, averaged over
 *       iterations with JMH's error: {@code ok} (also the primary score), {@code sent}, {@code fail.<class>},
 *       {@code dropped} (never sent: the drop policy's refusals and the unsent), and {@code scheduled} (the
 *       offered rate: a check on the pacer);</li>
 *   <li>exact totals, summed over iterations and forks: {@code n.scheduled}, {@code n.sent},
 *       {@code n.dropped}, {@code n.ok}, {@code n.fail.<class>}, {@code n.unsent}, {@code n.expired},
 *       {@code n.duplicates};</li>
 *   <li>percentiles in microseconds from merged histograms ({@link PercentileResult}):
 *       {@code latency.p50 .p90 .p99 .p999 .max} (from the intended start, every outcome, and requests that
 *       never completed at a lower bound: unsent ones at window close - intended, ones still out at the
 *       drain deadline at deadline - intended; verdicts read these), {@code latency.ok.*} (successes only),
 *       in the closed model, which has no intended start, {@code service.*} and {@code service.ok.*};
 *       {@code service.p50 .p99}, {@code lag.p50 .p99 .max} (actual send minus intended start);
 *       {@code body.bytes.min .max}, the response body lengths the client reported;</li>
 *   <li>cost: {@code cpu.per.req} (the client JVM's CPU time in the window per request sent, in us, harness
 *       included: the {@code noop} client at the same shape shows the harness's share, which ./bench
 *       subtracts), {@code alloc.per.req} (bytes allocated in the window per request sent, the counter of
 *       {@code -prof gc}, whose {@code gc.alloc.rate.norm} divides a whole iteration by JMH's call count),
 *       {@code cpu.share} (the client JVM's CPU time in the window over the window times its CPUs),
 *       {@code syscalls.per.req} and {@code cswitches.per.req} (the client JVM's system calls and context switches
 *       in a measured window per request sent, counted by the kernel: {@link clientbench.harness.KernelCounters}),
 *       {@code threads.max} (the JVM's peak live threads in the iteration), {@code inflight.end} (requests
 *       out when the window closed);</li>
 *   <li>long-lived shapes: {@code ll.asked} (requests asked to be held at once), {@code ll.held} (in flight
 *       when the window closed), {@code ll.open.ms} (from the first send until the count in flight last
 *       rose: it reached {@code ll.asked}, or stopped short), why the rest failed in {@code fail.*},
 *       {@code heap.per.inflight} (bytes after a GC) and {@code threads.per.inflight};</li>
 *   <li>connections and the stub's own counts, probed once the window is closed (so they never move it):
 *       {@code connections} (the client's established connections to the target when the window closed,
 *       by the kernel, matching the target's address and port), {@code connections.peak} (the most open at
 *       once in the window: the stub's count, or with an external target the kernel's sampled 4 times a
 *       second), {@code connections.used} (connections that carried a request in the window),
 *       {@code connections.opened} (connections the stub accepted over the iteration), {@code stub.requests}
 *       (requests the stub answered over the iteration: beside {@code n.sent}, they agree up to the requests
 *       that never reached it or were still out at the drain deadline), {@code listen.overflows} (connections the kernel's accept queues refused over
 *       the iteration: 0 proves the stub took every connection offered) - the last three summed like
 *       {@code n.*}; {@code stub.cpu} (its share of its CPUs in the window);</li>
 *   <li>validity flags, 0 or 1, the maximum over iterations and forks (see {@link Flag}):
 *       {@code flag.generator} (open model: {@code cpu.share} >= 0.9), {@code flag.lag} (open model: lag p99
 *       > 10% of latency p99 and > 1 ms), {@code flag.stub} ({@code stub.cpu} >= 0.7), {@code flag.unsteady} (this fork's
 *       measured iterations so far differ by > 20% in ok/s), {@code flag.samples} (< 1,000 latency samples
 *       in an iteration), {@code flag.steal} ({@code host.steal}, the share of the machine's CPU its hypervisor
 *       gave to other guests in the window, >= 0.1). A flagged figure never counts against a client; a rate kept
 *       despite {@code generator}, {@code lag}, {@code stub} or {@code steal} counts as kept
 *       ({@link clientbench.harness.Slo#LIMITS}).</li>
 * </ul>
 * HOW TO RUN: {@code java -jar target/benchmarks.jar OpenLoopBenchmark} adds it; with JMH's own main or the
 * Runner API, add {@code -prof clientbench.jmh.HarnessProfiler} ({@code addProfiler(HarnessProfiler.class)}).
 */
public final class HarnessProfiler implements InternalProfiler {

    private static final AtomicReference<IterationSnapshot> PUBLISHED = new AtomicReference<>();
    private static final AtomicReference<Map<String, ?>> FACTS = new AtomicReference<>(Map.of());
    private static final AtomicReference<java.util.Set<String>> ONCE_PER_FORK = new AtomicReference<>(java.util.Set.of());
    static volatile boolean active;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    /** ok/s of each measured iteration of this fork (JMH makes one profiler per fork), for {@link Flag#UNSTEADY}. */
    /** The fork's measured ok/s, by offered rate: iterations are compared only at the same rate (a knee search varies it). */
    private final java.util.Map<Double, List<Double>> measuredOkPerSecond = new java.util.HashMap<>();

    /** JMH lists it ({@code -lprof}, through the services file) and instantiates it by this constructor. */
    public HarnessProfiler() {
    }

    /** Called by the benchmark state at the end of each iteration, after the drain. */
    static void publish(IterationSnapshot s) {
        publish(s, Map.of());
    }

    /** With the benchmark's own conclusions (see {@link LoadState#afterIteration}): numbers become metrics. */
    static void publish(IterationSnapshot s, Map<String, ?> facts) {
        publish(s, facts, java.util.Set.of());
    }

    /** {@code oncePerFork}: the facts a fork gives in one iteration only, scored over forks ({@link PerForkResult}). */
    static void publish(IterationSnapshot s, Map<String, ?> facts, java.util.Set<String> oncePerFork) {
        PUBLISHED.set(s);
        FACTS.set(Map.copyOf(facts));
        ONCE_PER_FORK.set(java.util.Set.copyOf(oncePerFork));
    }

    @Override
    public String getDescription() {
        return "clientbench: ok/s as the primary score; accounting, latency from merged HdrHistograms, cost, validity flags";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        active = true;
        PUBLISHED.set(null);
        threads.resetPeakThreadCount();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        IterationSnapshot s = PUBLISHED.getAndSet(null);
        if (s == null) {
            return List.of();
        }
        List<Result<?>> r = results(s);
        java.util.Set<String> once = ONCE_PER_FORK.getAndSet(java.util.Set.of());
        FACTS.getAndSet(Map.of()).forEach((name, value) -> {
            if (value instanceof Number n && !Double.isNaN(n.doubleValue()) && once.contains(name)) {
                r.add(new PerForkResult(name, n.doubleValue(), ""));
            } else if (value instanceof Number n && !Double.isNaN(n.doubleValue())) {
                // n.*: a count, summed over iterations and forks like the other totals; else a value, averaged
                r.add(new ScalarResult(name, n.doubleValue(), name.startsWith("n.") ? "#" : "",
                        name.startsWith("n.") ? AggregationPolicy.SUM : AggregationPolicy.AVG));
            }
        });
        Result<?> primary = okAsPrimaryScore(benchmarkParams, result, s);
        if (primary != null) {
            r.add(primary);
        }
        r.add(new ScalarResult("threads.max", threads.getPeakThreadCount(), "threads", AggregationPolicy.MAX));
        List<Double> sameRate = measuredOkPerSecond.computeIfAbsent(s.offeredRatePerSecond(), k -> new ArrayList<>());
        if (iterationParams.getType() == IterationType.MEASUREMENT) {
            sameRate.add(s.perSecond(s.ok()));
        }
        r.add(flag(Flag.UNSTEADY, Flag.unsteady(sameRate)));
        return r;
    }

    /** The flags one iteration raises by itself (see {@link Flag}); UNSTEADY needs the fork's history. */
    static List<Result<?>> flags(IterationSnapshot s) {
        List<Result<?>> r = new ArrayList<>();
        java.util.EnumSet<Flag> raised = Flag.raisedBy(s);
        double cpuShare = s.cpuShare();
        if (!Double.isNaN(cpuShare)) {
            r.add(new ScalarResult("cpu.share", cpuShare, "of its CPUs", AggregationPolicy.AVG));
            r.add(flag(Flag.GENERATOR, raised.contains(Flag.GENERATOR)));
        }
        if (s.openModel() && s.lag().getTotalCount() > 0 && s.latency().getTotalCount() > 0) {
            r.add(flag(Flag.LAG, raised.contains(Flag.LAG)));
        }
        r.add(flag(Flag.SAMPLES, raised.contains(Flag.SAMPLES)));
        if (s.probes().stubCpuShare() >= 0) {
            r.add(new ScalarResult("stub.cpu", s.probes().stubCpuShare(), "of its CPUs", AggregationPolicy.AVG));
            r.add(flag(Flag.STUB, raised.contains(Flag.STUB)));
        }
        if (s.probes().stealShare() >= 0) {
            r.add(new ScalarResult("host.steal", s.probes().stealShare(), "of the machine's CPU", AggregationPolicy.AVG));
            r.add(flag(Flag.STEAL, raised.contains(Flag.STEAL)));
        }
        return r;
    }

    private static ScalarResult flag(Flag f, boolean raised) {
        return new ScalarResult(f.metric(), raised ? 1 : 0, "flag", AggregationPolicy.MAX);
    }

    /** The primary result that, summed with JMH's own, makes the iteration's score ok per time unit. */
    static Result<?> okAsPrimaryScore(BenchmarkParams params, IterationResult result, IterationSnapshot s) {
        if (params.getMode() != Mode.Throughput || !(result.getPrimaryResult() instanceof ThroughputResult jmh)) {
            return null;
        }
        double okPerUnit = s.perSecond(s.ok()) * params.getTimeUnit().toNanos(1) / 1e9;
        // operations / durationNs x (ns per time unit): with durationNs = one time unit, the score is exactly operations.
        return new ThroughputResult(ResultRole.PRIMARY, jmh.getLabel(), okPerUnit - jmh.getScore(),
                params.getTimeUnit().toNanos(1), params.getTimeUnit());
    }

    static List<Result<?>> results(IterationSnapshot s) {
        List<Result<?>> r = new ArrayList<>();
        r.add(rate("scheduled", s, s.scheduled()));
        r.add(rate("sent", s, s.sent()));
        r.add(rate("ok", s, s.ok()));
        for (Outcome o : Outcome.failures()) {
            r.add(rate("fail." + o.label(), s, s.count(o)));
        }
        r.add(rate("dropped", s, s.dropped()));

        r.add(total("n.scheduled", s.scheduled()));
        r.add(total("n.sent", s.sent()));
        r.add(total("n.dropped", s.dropped()));
        r.add(total("n.ok", s.ok()));
        for (Outcome o : Outcome.failures()) {
            r.add(total("n.fail." + o.label(), s.count(o)));
        }
        r.add(total("n.unsent", s.unsent()));
        r.add(total("n.expired", s.expiredAtDrain()));
        r.add(total("n.duplicates", s.duplicates()));

        if (!Double.isNaN(s.cpuMicrosPerRequest())) {
            r.add(new ScalarResult("cpu.per.req", s.cpuMicrosPerRequest(), "us", AggregationPolicy.AVG));
        }
        if (!Double.isNaN(s.allocatedBytesPerRequest())) {
            r.add(new ScalarResult("alloc.per.req", s.allocatedBytesPerRequest(), "B", AggregationPolicy.AVG));
        }
        r.add(new ScalarResult("inflight.end", s.inFlightAtClose(), "requests", AggregationPolicy.MAX));
        r.addAll(flags(s));
        Probes p = s.probes();
        if (p.connections() >= 0) {
            r.add(new ScalarResult("connections", p.connections(), "connections", AggregationPolicy.MAX));
        }
        if (p.connectionsPeak() >= 0) {
            r.add(new ScalarResult("connections.peak", p.connectionsPeak(), "connections", AggregationPolicy.MAX));
        }
        if (p.connectionsUsed() >= 0) {
            r.add(new ScalarResult("connections.used", p.connectionsUsed(), "connections", AggregationPolicy.MAX));
        }
        if (p.connectionsOpened() >= 0) {
            r.add(total("connections.opened", p.connectionsOpened()));
        }
        if (p.stubRequests() >= 0) {
            r.add(total("stub.requests", p.stubRequests()));
        }
        if (p.listenRefused() >= 0) {
            r.add(total("listen.overflows", p.listenRefused()));
        }
        if (p.asked() >= 0) {
            r.add(new ScalarResult("ll.asked", p.asked(), "requests", AggregationPolicy.MAX));
            r.add(new ScalarResult("ll.held", s.inFlightAtClose(), "requests", AggregationPolicy.AVG));
            r.add(new ScalarResult("ll.open.ms", s.inFlightPeakAfterNanos() / 1e6, "ms", AggregationPolicy.AVG));
        }
        if (p.syscalls() >= 0 && s.sent() > 0) {
            r.add(new ScalarResult("syscalls.per.req", (double) p.syscalls() / s.sent(), "#", AggregationPolicy.AVG));
        }
        if (p.contextSwitches() >= 0 && s.sent() > 0) {
            r.add(new ScalarResult("cswitches.per.req", (double) p.contextSwitches() / s.sent(), "#", AggregationPolicy.AVG));
        }
        if (p.heapBytes() >= 0 && s.inFlightAtClose() > 0) {
            r.add(new ScalarResult("heap.per.inflight", (double) p.heapBytes() / s.inFlightAtClose(), "B", AggregationPolicy.AVG));
            r.add(new ScalarResult("threads.per.inflight", (double) p.threadsAtClose() / s.inFlightAtClose(),
                    "threads", AggregationPolicy.AVG));
        }

        String name = s.openModel() ? "latency" : "service";
        percentiles(r, name, s.latency());
        percentiles(r, name + ".ok", s.latencyOk());
        if (s.openModel() && s.service().getTotalCount() > 0) {
            r.add(new PercentileResult("service.p50", 50, s.service()));
            r.add(new PercentileResult("service.p99", 99, s.service()));
        }
        if (s.bodyBytesMin() >= 0) {
            r.add(new ScalarResult("body.bytes.min", s.bodyBytesMin(), "B", AggregationPolicy.MIN));
            r.add(new ScalarResult("body.bytes.max", s.bodyBytesMax(), "B", AggregationPolicy.MAX));
        }
        if (s.lag().getTotalCount() > 0) {
            r.add(new PercentileResult("lag.p50", 50, s.lag()));
            r.add(new PercentileResult("lag.p99", 99, s.lag()));
            r.add(new PercentileResult("lag.max", PercentileResult.MAX, s.lag()));
        }
        return r;
    }

    private static void percentiles(List<Result<?>> r, String name, Histogram h) {
        if (h.getTotalCount() > 0) {
            r.add(new PercentileResult(name + ".p50", 50, h));
            r.add(new PercentileResult(name + ".p90", 90, h));
            r.add(new PercentileResult(name + ".p99", 99, h));
            r.add(new PercentileResult(name + ".p999", 99.9, h));
            r.add(new PercentileResult(name + ".max", PercentileResult.MAX, h));
        }
    }

    private static ScalarResult rate(String label, IterationSnapshot s, long events) {
        return new ScalarResult(label, s.perSecond(events), "ops/s", AggregationPolicy.AVG);
    }

    private static ScalarResult total(String label, long n) {
        return new ScalarResult(label, n, "#", AggregationPolicy.SUM);
    }
}
