package clientbench.harness;

import clientbench.adapters.Adapters;
import clientbench.api.AdapterConfig;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Request;
import clientbench.harness.probe.HostSteal;
import clientbench.harness.probe.JitTime;
import clientbench.harness.probe.JvmCounters;
import clientbench.harness.probe.KernelCounters;
import clientbench.harness.probe.Libc;
import clientbench.harness.probe.ListenQueue;
import clientbench.harness.probe.Niceness;
import clientbench.harness.probe.TcpConnections;
import clientbench.harness.record.HlogFile;
import clientbench.harness.record.IterationSnapshot;
import clientbench.harness.record.Probes;
import clientbench.stub.StubServer;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * One trial of one client: the CPU layout, the stub in its own JVM (unless a target is given), the
 * adapter, the load generator, the trial's histogram log and its record, with their lifecycle in one place
 * for JMH states and tests.
 */
public final class Trial implements AutoCloseable {

    private final TrialSpec spec;
    private final CpuLayout layout;
    private final StubProcess stub;
    private final HttpClientAdapter adapter;
    private final LoadGenerator generator;
    private final HlogFile hlog;
    private final TrialRecord record;
    private final Map<String, String> settings;
    /** The client's connections to the target in the kernel's tables; null for noop (no network). */
    private final TcpConnections tcp;
    /** External target only: the kernel's connection count sampled for its peak (no stub counts it). */
    private final TcpConnections.PeakSampler sampler;
    private final long baselineHeapBytes;
    private boolean failed;
    // This iteration's marks, taken before its window.
    private StubServer.Stats statsAtMark;
    private long markNanos;
    private long samplerCpuAtMark = -1;
    private long jitNanosAtMark = -1;
    private String jitSourceOfWindow = "not read"; // how the last closed window's JIT share was taken
    private boolean compilersAside; // a steady fork's: its compiler threads run on the stub's CPUs
    private long jitMarkNanos;
    private HostSteal.Ticks stealAtMark;
    private long gcPauseMillisAtMark = -1;
    private long listenRefusedAtStart;
    private KernelCounters.Window kernelWindow = KernelCounters.Window.NONE;
    private boolean kernelCounting; // the kernel counts the window now open
    /** Which window the kernel's counts come from, as the trial's settings say it. */
    private String kernelCounted = "no window yet";
    /** The last counted window's system calls and context switches per request, as JMH metrics. */
    private Map<String, Double> kernelPerRequest = Map.of();
    /** How each window's JIT share is read, for the trial's settings. */
    private static final String JIT_SOURCE = switch (JitTime.source()) {
        case "cpu" -> "the compiler threads' CPU time in the window (/proc/self/task/*/schedstat, ns), over the window"
                + " times the JVM's CPUs";
        case "elapsed" -> "the compilers' elapsed time in the window (CompilationMXBean), over the window times the JVM's CPUs";
        default -> "not measured";
    };

    private Trial(TrialSpec spec, CpuLayout layout, StubProcess stub, HttpClientAdapter adapter, LoadGenerator generator,
                  HlogFile hlog, TrialRecord record, Map<String, String> settings, TcpConnections tcp,
                  long baselineHeapBytes) {
        this.spec = spec;
        this.layout = layout;
        this.stub = stub;
        this.adapter = adapter;
        this.generator = generator;
        this.hlog = hlog;
        this.record = record;
        this.settings = settings;
        this.tcp = tcp;
        this.sampler = stub == null && tcp != null ? tcp.new PeakSampler() : null;
        this.baselineHeapBytes = baselineHeapBytes;
    }

    /**
     * Plans the CPU layout, starts the stub (when needed) on its CPUs, pins this JVM to the client's, then starts the
     * client and the log; on failure, stops what it started.
     * @param pin pin the stub, the client and the pacer to CPUs of their own ({@link CpuLayout})
     */
    public static Trial start(TrialSpec spec, boolean pin) throws IOException, InterruptedException {
        return start(spec, pin, Map.of());
    }

    /**
     * As {@link #start(TrialSpec, boolean)}, recording {@code about} (the JMH benchmark, its parameters, the
     * ./bench shape) in the trial's record beside its log.
     */
    public static Trial start(TrialSpec spec, boolean pin, Map<String, Object> about) throws IOException, InterruptedException {
        return start(spec, pin, about, System.getProperty(StubProcess.SHARED, ""));
    }

    /** As {@link #start(TrialSpec, boolean, Map)}, asking the round's stub {@code sharedStub} names, if any. */
    static Trial start(TrialSpec spec, boolean pin, Map<String, Object> about, String sharedStub)
            throws IOException, InterruptedException {
        CpuLayout layout = CpuLayout.plan(CpuLayout.allowedCpus(), pin);
        StubProcess stub = null;
        HttpClientAdapter adapter = null;
        try {
            URI target;
            if (Adapters.NOOP.equals(spec.client())) {
                // No network; the same pinning as a client, so that it is the baseline of one.
                target = URI.create((spec.protocol().tls() ? "https" : "http") + "://127.0.0.1:9");
            } else if (spec.target().isBlank()) {
                stub = StubProcess.shared(sharedStub, spec.protocol().tls());
                if (stub == null) {
                    stub = StubProcess.start(spec.protocol().tls(), layout.pinned() ? layout.stubCpus() : null);
                }
                target = stub.uri();
            } else {
                target = TrialSpec.origin(AdapterConfig.parseTarget(spec.target()));
            }
            // Before the client starts: a body file that cannot be read fails the trial here, not at each send.
            List<Request> requests = spec.requests(target);
            String pinFailure = layout.pinClient(); // before the client starts its threads: they inherit its CPUs
            int ioThreads = spec.ioThreads() > 0 ? spec.ioThreads() : layout.ioThreads();
            AdapterConfig config = new AdapterConfig(target, spec.protocol(), spec.connections(),
                    TrialSpec.CONNECT_TIMEOUT, spec.requestTimeout(), ioThreads, spec.trustAllCertificates());
            adapter = Adapters.create(spec.client(), config);
            Map<String, String> settings = new LinkedHashMap<>();
            settings.put("library", adapter.libraryVersion());
            settings.put("target", target.toString());
            settings.put("request", spec.describeRequest(target));
            settings.put("stub", stub == null ? "external or none" : (stub.isShared()
                    ? "the round's JVM (its forks ask it in turn), pid " : "own JVM, pid ") + stub.pid()
                    + (stub.cpu() == null ? ", not pinned" : ", pinned to CPU " + stub.cpu())
                    + (System.getProperty(StubProcess.CLASS_PATH) == null ? "" : ", on the launcher's class path"));
            settings.put("harness.cpus", layout.describe() + (pinFailure == null ? "" : "; pinning failed: " + pinFailure));
            settings.put("harness.ioThreads", ioThreads + (spec.ioThreads() > 0 ? " (given)" : " (one per client CPU)"));
            if (PlantedCost.SPIN_NANOS > 0) {
                settings.put("planted", PlantedCost.SPIN_NANOS + " ns of CPU spun on each completion: a known regression");
            }
            settings.putAll(adapter.settings());
            HlogFile hlog = null;
            TrialRecord record = null;
            if (spec.hlog() != null) {
                hlog = new HlogFile(spec.hlog(), "clientbench " + spec);
                record = new TrialRecord(spec.hlog(), spec.client(), about, settings, layout);
                if (pinFailure != null) {
                    record.layout("pinned", false);
                    record.layout("pinFailure", pinFailure);
                }
                record.layout("nice", niceness(stub));
            }
            LoadGenerator generator = new LoadGenerator(adapter, requests, spec.load().withPacing(layout.pacing()));
            TcpConnections tcp = Adapters.NOOP.equals(spec.client()) ? null : TcpConnections.to(target);
            return new Trial(spec, layout, stub, adapter, generator, hlog, record, settings, tcp,
                    spec.measureHeap() ? heapAfterGc() : -1);
        } catch (IOException | InterruptedException | RuntimeException e) {
            if (adapter != null) {
                adapter.close();
            }
            if (stub != null) {
                stub.close();
            }
            throw e;
        }
    }

    /** The priority the client's and the stub's JVMs run at, read back from the kernel ({@link Niceness}). */
    private static Map<String, Object> niceness(StubProcess stub) {
        Map<String, Object> m = new LinkedHashMap<>();
        int client = Niceness.self();
        int stubNice = stub == null ? Niceness.UNKNOWN : Niceness.of(stub.pid());
        m.put("client", client == Niceness.UNKNOWN ? null : client);
        m.put("stub", stubNice == Niceness.UNKNOWN ? null : stubNice);
        return m;
    }

    /** The trial's record beside its log: {@code x.hlog} has {@code x.trial.json} ({@link TrialRecord}). */
    public static Path recordFile(Path hlog) {
        return TrialRecord.fileFor(hlog);
    }

    /** The live heap: collections 50 ms apart (one can leave an earlier client's objects for the next) until one frees
     * under 1% more, at most five. */
    private static long heapAfterGc() {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            long now = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            if (now > used * 0.99) {
                return Math.min(now, used);
            }
            used = now;
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return used;
    }

    public TrialSpec spec() {
        return spec;
    }

    public CpuLayout layout() {
        return layout;
    }

    /** The stub's process id, or -1 when the trial has no stub of its own (an external target). */
    public long stubPid() {
        return stub == null ? -1 : stub.pid();
    }

    public HttpClientAdapter adapter() {
        return adapter;
    }

    /** The generator, for the benchmark's hot path: {@link LoadGenerator#sendNext} with no hop between. */
    public LoadGenerator generator() {
        return generator;
    }

    /** Library version and every effective setting, for env.json. */
    public Map<String, String> settings() {
        return settings;
    }

    /**
     * Starts an iteration whose measured window, from its first send, is {@code windowNanos} long. The
     * calling thread is the pacer: it is pinned (with the JVM) here, before the window.
     */
    public void beginIteration(long windowNanos) {
        beginIteration(windowNanos, false);
    }

    /**
     * As {@link #beginIteration(long)}; {@code kernelCounts}: the kernel counts the JVM's system calls and context
     * switches from here to the window's close ({@link KernelCounters}; a measured window's figures).
     */
    public void beginIteration(long windowNanos, boolean kernelCounts) {
        Map<String, Object> pinning = layout.pinClientAndPacer(); // what did not go as planned: never reset
        if (compilersAside) {
            CpuLayout.compilersTo(layout.stubCpus()); // the pinning above took them back to the client's CPUs
        }
        samplerAside();
        long slack = Pacer.askSmallTimerSlack(); // at each iteration: JMH may move its loop to another thread
        if (record != null) {
            pinning.forEach(record::layout);
            record.layout("pacerTimerSlackNanos", Pacer.timerSlackFact(slack, Libc.unavailable()));
        }
        // Marks for the iteration's deltas: nothing is in flight between the previous drain and the first send.
        if (stub != null) {
            statsAtMark = stub.mark();
            markNanos = System.nanoTime();
        } else if (sampler != null) {
            sampler.peakAndReset(tcp.established());
            samplerCpuAtMark = sampler.cpuNanos();
        }
        listenRefusedAtStart = ListenQueue.refused();
        jitNanosAtMark = JitTime.nanos();
        jitMarkNanos = System.nanoTime();
        stealAtMark = HostSteal.now();
        gcPauseMillisAtMark = JvmCounters.gcPauseMillis();
        kernelWindow = kernelCounts ? KernelCounters.start() : KernelCounters.Window.NONE;
        kernelCounting = kernelCounts;
        generator.beginIteration(windowNanos);
    }

    /**
     * The connection sampler of an external target to the stub's CPUs, which no stub uses then: each read of the
     * kernel's table would stall the client's CPU for milliseconds. Again at every iteration, as the pinning before
     * takes every thread back; the record says where it ran.
     */
    private void samplerAside() {
        if (sampler == null || !layout.pinned()) {
            return;
        }
        String failure = CpuLayout.threadTo(sampler.tid(), layout.stubCpus());
        if (record != null) {
            record.layout("connectionSampler", failure == null ? "on CPUs " + CpuLayout.format(layout.stubCpus())
                    : "with the client: " + failure);
        }
    }

    /**
     * A steady fork's compilers from here on run on the stub's CPUs at every iteration ({@link CompilersAside}); an
     * unsteady fork's stay with the client, as that much work would slow its stub. The record says which, and how many.
     */
    public void compilersAside(boolean steady) {
        compilersAside = steady && layout.pinned();
        String how = compilersAside ? CompilersAside.to(layout.stubCpus())
                : !layout.pinned() ? "as the JVM set them: nothing is pinned"
                : "with the client: the fork was not steady";
        if (record != null) {
            record.layout("compilersAfterWarmup", how);
        }
    }

    /** The trial record's {@code warmup}: whether the fork was steady before it was measured, and why (Steadiness). */
    public void recordWarmup(Map<String, Object> warmup) {
        if (record != null) {
            record.put("warmup", warmup);
        }
    }

    public boolean sendNext(BooleanSupplier stop) {
        return generator.sendNext(stop);
    }

    /**
     * Closes the window, then probes its end (connections, stub CPU, threads and, for long-lived shapes, heap), after
     * the window so their cost never moves it; then drains and counts what the stub accepted and answered. A measured
     * iteration goes into the histogram log.
     */
    public IterationSnapshot endIteration(boolean measured) {
        return endIteration(measured, this::facts);
    }

    /** The system calls and context switches per request of the last window the kernel counted; empty before one. */
    public Map<String, Double> kernelPerRequest() {
        return kernelPerRequest;
    }

    /** What the trial itself knows of an iteration beyond its counts: the fault mix's faults among those sent. */
    public Map<String, Object> facts(IterationSnapshot s) {
        return spec.faults().equals("none") ? Map.of() : Map.of("n.faults.injected", spec.faultsIn(s.sent()));
    }

    /**
     * As {@link #endIteration(boolean)}; {@code facts} adds what the benchmark concluded from the iteration
     * (a knee search: the rate probed, whether it kept the SLO and why not) to its record in the trial's JSON.
     */
    public IterationSnapshot endIteration(boolean measured, java.util.function.Function<IterationSnapshot, Map<String, ?>> facts) {
        try {
            IterationSnapshot s = probeAndDrain();
            if (measured && hlog != null) {
                hlog.write(s);
            } else if (hlog != null) {
                hlog.rehearse(s); // the encoder compiles here, not in the measured windows it would follow
            }
            Map<String, ?> concluded = facts.apply(s);
            if (record != null) {
                record.settings(adapter.settings());
                if (kernelCounting) {
                    kernelCounted = "the last window counted: iteration " + record.iterationCount()
                            + (measured ? ", a measured window" : ", a warm-up window");
                }
                record.settings(Map.of("kernelCounters", KernelCounters.describe(kernelCounted), "jitShare", JIT_SOURCE,
                        "cpuClock", JvmCounters.describeCpuClock()));
                Map<String, Object> withSource = new LinkedHashMap<>(concluded);
                withSource.put("jitSource", jitSourceOfWindow); // "cpu", "elapsed", "failed" or "none"
                record.add(s, measured, withSource);
            }
            return s;
        } catch (RuntimeException e) {
            failed = true; // the log is discarded: no half-counted interval in it
            throw e;
        }
    }

    private IterationSnapshot probeAndDrain() {
        generator.closeWindow();
        KernelCounters.Counts kernel = kernelWindow.stop();
        kernelWindow = KernelCounters.Window.NONE;
        long connections = tcp == null ? -1 : tcp.established();
        StubServer.Stats atClose = stub == null ? null : stub.stats();
        long closeNanos = System.nanoTime();
        long samplerPeak = stub == null && sampler != null ? Math.max(sampler.peakAndReset(connections), connections) : -1;
        long samplerCpuNanos = sampler == null ? -1 : JvmCounters.delta(samplerCpuAtMark, sampler.cpuNanos());
        long threads = ManagementFactory.getThreadMXBean().getThreadCount();
        long jitAtClose = JitTime.nanos();
        jitSourceOfWindow = JitTime.windowSource(jitNanosAtMark, jitAtClose);
        double stealShare = HostSteal.share(stealAtMark, HostSteal.now());
        long gcPauseMillis = JvmCounters.delta(gcPauseMillisAtMark, JvmCounters.gcPauseMillis());
        double jitShare = jitAtClose < 0 || jitNanosAtMark < 0 || closeNanos <= jitMarkNanos ? -1
                : (double) (jitAtClose - jitNanosAtMark) / (closeNanos - jitMarkNanos) / layout.jvmCpus();
        long compilerCpuNanos = JitTime.source().equals("cpu") && jitAtClose >= 0 && jitNanosAtMark >= 0
                ? jitAtClose - jitNanosAtMark : -1;
        long heap = spec.measureHeap() ? heapAfterGc() - baselineHeapBytes : -1;
        IterationSnapshot s = generator.drain();
        if (kernel.syscalls() >= 0 && kernel.contextSwitches() >= 0 && s.sent() > 0) {
            kernelPerRequest = Map.of("syscalls.per.req", (double) kernel.syscalls() / s.sent(),
                    "cswitches.per.req", (double) kernel.contextSwitches() / s.sent());
        }
        // The stub's connection counts are read after the drain, as its requests are: a window's requests that
        // reach it only after the close (a cold client, a loaded host) were still carried by those connections.
        StubServer.Stats atEnd = stub == null ? null : stub.stats();
        boolean counted = statsAtMark != null && atEnd != null;
        long peak = atEnd != null ? atEnd.peakOpen() : samplerPeak;
        double stubCpuShare = statsAtMark != null && atClose != null && atClose.cpuNanos() >= 0
                ? (double) (atClose.cpuNanos() - statsAtMark.cpuNanos()) / (closeNanos - markNanos) / stub.ioThreads() : -1;
        long refusedAtEnd = ListenQueue.refused();
        long asked = spec.measureHeap() ? spec.load().concurrency() : -1; // long-lived shapes
        return s.withProbes(new Probes(layout.jvmCpus(), asked, connections, peak,
                atEnd == null ? -1 : atEnd.usedConnections(),
                counted ? atEnd.accepted() - statsAtMark.accepted() : -1,
                counted ? atEnd.requests() - statsAtMark.requests() : -1, stubCpuShare,
                listenRefusedAtStart < 0 || refusedAtEnd < 0 ? -1 : refusedAtEnd - listenRefusedAtStart, heap, threads,
                jitShare, compilerCpuNanos, gcPauseMillis, stealShare, kernel.syscalls(), kernel.contextSwitches(),
                samplerCpuNanos));
    }

    @Override
    public void close() {
        kernelWindow.stop(); // a window a failure left open: its perf ends with it
        if (sampler != null) {
            sampler.close();
        }
        try {
            adapter.close();
        } finally {
            if (stub != null) {
                stub.close();
            }
            if (hlog != null) {
                if (failed) {
                    hlog.discard();
                } else {
                    hlog.close();
                }
            }
        }
    }
}
