package clientbench.jmh;

import clientbench.api.Outcome;
import clientbench.harness.rule.Flag;
import clientbench.harness.record.IterationSnapshot;
import clientbench.harness.record.Probes;
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
 * Turns each iteration's {@link IterationSnapshot} into JMH results: a profiler, as {@code @AuxCounters} are averaged
 * (wrong for percentiles) and must be identifiers. JMH sums primary {@code ThroughputResult}s, so one scoring ok/s
 * minus JMH's own makes ok/s the headline. Metric names are API: the notebook reads them (docs/reference/metrics.md).
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
        if (!Double.isNaN(s.pacerCpuMicrosPerRequest())) {
            r.add(new ScalarResult("pacer.cpu.per.req", s.pacerCpuMicrosPerRequest(), "us", AggregationPolicy.AVG));
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
