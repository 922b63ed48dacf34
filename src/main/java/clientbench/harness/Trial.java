package clientbench.harness;

import clientbench.adapters.Adapters;
import clientbench.api.AdapterConfig;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Request;

import java.io.IOException;
import java.net.URI;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * One trial of one client: the stub in its own JVM (unless a target is given), the adapter, the load
 * generator and the trial's histogram log, with their lifecycle in one place for JMH states and tests.
 */
public final class Trial implements AutoCloseable {

    private final TrialSpec spec;
    private final StubProcess stub;
    private final HttpClientAdapter adapter;
    private final LoadGenerator generator;
    private final HlogFile hlog;
    private final Map<String, String> settings;
    private boolean failed;

    private final int targetPort;
    /** The CPUs this JVM may use after pinning. */
    private final int jvmCpus = Runtime.getRuntime().availableProcessors();
    private final long baselineHeap;

    private Trial(TrialSpec spec, StubProcess stub, HttpClientAdapter adapter, LoadGenerator generator, HlogFile hlog,
                  Map<String, String> settings, int targetPort, long baselineHeap) {
        this.targetPort = targetPort;
        this.baselineHeap = baselineHeap;
        this.spec = spec;
        this.stub = stub;
        this.adapter = adapter;
        this.generator = generator;
        this.hlog = hlog;
        this.settings = settings;
    }

    /** Starts the stub (when needed), the client and the log; on failure, stops what it started. */
    public static Trial start(TrialSpec spec, boolean pin) throws IOException, InterruptedException {
        boolean noop = Adapters.NOOP.equals(spec.client());
        StubProcess stub = null;
        HttpClientAdapter adapter = null;
        try {
            URI target;
            if (noop) {
                target = URI.create("http://127.0.0.1:9");
            } else if (spec.target().isBlank()) {
                stub = StubProcess.start(spec.protocol().tls(), pin);
                target = stub.uri();
                if (stub.cpu() != null) {
                    pinSelfAwayFrom(Integer.parseInt(stub.cpu()));
                }
            } else {
                target = AdapterConfig.parseTarget(spec.target());
            }
            AdapterConfig config = new AdapterConfig(target, spec.protocol(), spec.connections(),
                    TrialSpec.CONNECT_TIMEOUT, spec.requestTimeout(), 0, true);
            adapter = Adapters.create(spec.client(), config);
            Request request = spec.requestBytes() > 0
                    ? Request.post(target, spec.pathAndQuery(), filled(spec.requestBytes()), spec.bytes())
                    : Request.get(target, spec.pathAndQuery(), spec.bytes());
            Map<String, String> settings = new LinkedHashMap<>();
            settings.put("library", adapter.libraryVersion());
            settings.put("target", target.toString());
            settings.put("stub", stub == null ? "external or none" : "own JVM, pid " + stub.pid()
                    + (stub.cpu() == null ? ", not pinned" : ", pinned to CPU " + stub.cpu()));
            settings.putAll(adapter.settings());
            HlogFile hlog = null;
            if (spec.hlog() != null) {
                hlog = new HlogFile(spec.hlog(), "clientbench " + spec);
                JsonFiles.writeAtomically(settingsFile(spec.hlog()), Map.of("client", spec.client(), "settings", settings));
            }
            return new Trial(spec, stub, adapter, new LoadGenerator(adapter, request, spec.load()), hlog, settings,
                    target.getPort(), spec.measureHeap() ? heapAfterGc() : -1);
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

    /** The trial's settings beside its log: {@code x.hlog} has {@code x.settings.json}. */
    public static java.nio.file.Path settingsFile(java.nio.file.Path hlog) {
        String name = hlog.getFileName().toString();
        return hlog.resolveSibling(name.substring(0, name.length() - ".hlog".length()) + ".settings.json");
    }

    private static byte[] filled(int n) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) 'x');
        return b;
    }

    private static long heapAfterGc() {
        System.gc();
        return java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** Keeps this JVM's threads off the stub's CPU, so the two never compete for one core. */
    private static void pinSelfAwayFrom(int stubCpu) {
        String taskset = StubProcess.taskset();
        int cpus = Runtime.getRuntime().availableProcessors();
        if (taskset == null || cpus < 2) {
            return;
        }
        String others = stubCpu == 0 ? "1-" + (cpus - 1) : "0-" + (stubCpu - 1);
        try {
            new ProcessBuilder(taskset, "-a", "-p", "-c", others, Long.toString(ProcessHandle.current().pid()))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
        } catch (IOException e) {
            System.err.println("clientbench: could not pin the client JVM: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public TrialSpec spec() {
        return spec;
    }

    public HttpClientAdapter adapter() {
        return adapter;
    }

    /** Library version and every effective setting, for env.json. */
    public Map<String, String> settings() {
        return settings;
    }

    /** Starts an iteration whose measured window, from its first send, is {@code windowNanos} long. */
    public void beginIteration(long windowNanos) {
        generator.beginIteration(windowNanos);
    }

    public boolean sendNext(BooleanSupplier stop) {
        return generator.sendNext(stop);
    }

    /**
     * Closes the window (its schedule sent and accounted), then probes its end: the client's connections
     * to the target, its threads and (long-lived shapes) the heap its requests in flight hold; then
     * drains. The probes run after the window's end, so their cost never moves it. A measured iteration
     * goes into the histogram log.
     */
    public IterationSnapshot endIteration(boolean measured) {
        generator.closeWindow();
        long connections = TcpConnections.establishedTo(targetPort);
        long threads = java.lang.management.ManagementFactory.getThreadMXBean().getThreadCount();
        long heap = spec.measureHeap() ? heapAfterGc() - baselineHeap : -1;
        IterationSnapshot s = generator.drain().withProbes(new Probes(jvmCpus, connections, heap, threads));
        if (!s.balanced()) {
            failed = true;
            throw new IllegalStateException("accounting does not balance: " + s.summary());
        }
        if (measured && hlog != null) {
            hlog.write(s);
        }
        return s;
    }

    @Override
    public void close() {
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
