package clientbench.reliability;

import clientbench.harness.record.JsonFiles;
import clientbench.testkit.OwnSockets;
import com.fasterxml.jackson.databind.JsonNode;
import com.sun.management.HotSpotDiagnosticMXBean;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.runner.IterationType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What a trial leaves in its fork, for {@link ForkHygieneTest}: threads (daemon and virtual too, which JMH's own check
 * ignores) and sockets. After JMH's trial teardown, the last iteration's check waits up to {@link #SETTLE_MILLIS} and
 * writes {@code leftovers-<pid>.json}. Threads one per JVM (JMH's, the JDK's, a library's) are not counted.
 */
public final class TrialLeftoversProfiler implements InternalProfiler {

    /**
     * How long the check waits for the trial's threads and connections to end after it closed. They take
     * milliseconds; a passing check never waits this long, so it can be generous for a busy machine, while
     * a thread or connection left behind stays for good.
     */
    static final long SETTLE_MILLIS = 10_000;
    static final String FILE_PREFIX = "leftovers-";

    /** JVM-wide threads of a client's library, by client: one per JVM, so no client's close() can end them. */
    private static final Map<String, Pattern> LIBRARY_THREADS = Map.of(
            "okhttp", Pattern.compile("Okio Watchdog"),
            "okhttp-vt", Pattern.compile("Okio Watchdog"),
            "vertx", Pattern.compile("Cleaner-\\d+"));
    /** The JDK's own, whichever client runs: the process reaper and what blocking virtual threads start. */
    private static final Pattern JDK_THREADS = Pattern.compile(
            "process reaper|VirtualThread-unblocker|VirtualThread-unparker|MasterPoller|SubPoller-\\d+|Read-Poller|Write-Poller");

    private Pattern libraryThreads = Pattern.compile("(?!)");
    private Set<Long> threadsBefore;
    private Set<String> socketsBefore;
    private int measuredSoFar;
    /** Why a TCP table could not be read, "" while every read succeeded. */
    private String tablesUnread = "";

    /** JMH instantiates it by this constructor, in the fork. */
    public TrialLeftoversProfiler() {
    }

    @Override
    public String getDescription() {
        return "clientbench test: threads and sockets a trial leaves in its fork";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        if (threadsBefore == null) { // before the first iteration, which starts the trial
            String client = benchmarkParams.getParamsKeys().contains("client") ? benchmarkParams.getParam("client") : "";
            libraryThreads = LIBRARY_THREADS.getOrDefault(client, libraryThreads);
            threadsBefore = platformThreads().stream().map(Thread::threadId).collect(Collectors.toSet());
            threadsBefore.addAll(virtualThreads().keySet());
            socketsBefore = OwnSockets.inodes();
        }
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        if (iterationParams.getType() != IterationType.MEASUREMENT || ++measuredSoFar < iterationParams.getCount()) {
            return List.of();
        }
        long start = System.nanoTime();
        List<Map<String, Object>> threads = threadsLeft();
        Set<String> sockets = socketsLeft();
        Map<String, String> tcp = tcpByInode();
        while ((!threads.isEmpty() || sockets.stream().anyMatch(tcp::containsKey))
                && System.nanoTime() - start < SETTLE_MILLIS * 1_000_000) {
            sleep();
            threads = threadsLeft();
            sockets = socketsLeft();
            tcp = tcpByInode();
        }
        List<String> connections = new ArrayList<>();
        List<String> otherSockets = new ArrayList<>();
        for (String inode : sockets) {
            if (tcp.containsKey(inode)) {
                connections.add(tcp.get(inode));
            } else {
                otherSockets.add("socket:[" + inode + "]");
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("pid", ProcessHandle.current().pid());
        out.put("waitedMillis", (System.nanoTime() - start) / 1_000_000);
        out.put("socketsReadable", OwnSockets.readable());
        out.put("socketTablesUnread", tablesUnread);
        out.put("threads", threads);
        out.put("connections", connections);
        out.put("otherSockets", otherSockets);
        Path dir = Path.of(System.getProperty("clientbench.hlog.dir", "."));
        try {
            JsonFiles.writeAtomically(dir.resolve(FILE_PREFIX + ProcessHandle.current().pid() + ".json"), out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return List.of();
    }

    private List<Map<String, Object>> threadsLeft() {
        List<Map<String, Object>> left = new ArrayList<>();
        for (Thread t : platformThreads()) {
            if (t.isAlive() && !threadsBefore.contains(t.threadId()) && !jvmOrJmh(t)) {
                left.add(Map.of("name", t.getName(), "daemon", t.isDaemon(), "virtual", false));
            }
        }
        virtualThreads().forEach((id, name) -> {
            if (!threadsBefore.contains(id) && !JDK_THREADS.matcher(name).matches()) {
                left.add(Map.of("name", name, "daemon", true, "virtual", true));
            }
        });
        return left;
    }

    private boolean jvmOrJmh(Thread t) {
        ThreadGroup group = t.getThreadGroup();
        String name = t.getName();
        return name.contains("-jmh-worker-")
                || JDK_THREADS.matcher(name).matches()
                || libraryThreads.matcher(name).matches()
                || (group != null && group.getName().equals("CarrierThreads"))
                || (t instanceof ForkJoinWorkerThread w && w.getPool() == ForkJoinPool.commonPool());
    }

    private static Set<Thread> platformThreads() {
        return Thread.getAllStackTraces().keySet();
    }

    /** Id to name of every virtual thread, from a JSON thread dump (getAllStackTraces lists platform threads only). */
    private static Map<Long, String> virtualThreads() {
        Map<Long, String> virtual = new LinkedHashMap<>();
        try {
            Path dir = Files.createTempDirectory("clientbench-leftovers");
            Path file = dir.resolve("threads.json");
            try {
                ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                        .dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
                for (JsonNode container : JsonFiles.MAPPER.readTree(file.toFile()).path("threadDump").path("threadContainers")) {
                    for (JsonNode t : container.path("threads")) {
                        if (t.path("virtual").asBoolean(false)) {
                            virtual.put(t.path("tid").asLong(), t.path("name").asText());
                        }
                    }
                }
            } finally {
                Files.deleteIfExists(file);
                Files.delete(dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot take a thread dump", e);
        }
        return virtual;
    }

    /** Socket descriptors opened since before the trial and still open, by inode. */
    private Set<String> socketsLeft() {
        Set<String> now = OwnSockets.inodes();
        now.removeAll(socketsBefore);
        return now;
    }

    /**
     * Inode to "local -> remote state" for the kernel's TCP sockets (hex addresses as /proc writes them). A table that
     * cannot be read or parsed is named in {@link #tablesUnread} (the test fails on it: a connection left open would
     * go unseen); only tcp6 may be missing, on a kernel without IPv6.
     */
    private Map<String, String> tcpByInode() {
        Map<String, String> byInode = new LinkedHashMap<>();
        for (String table : List.of("/proc/self/net/tcp", "/proc/self/net/tcp6")) {
            try {
                List<String> lines = Files.readAllLines(Path.of(table));
                for (String line : lines.subList(1, lines.size())) {
                    String[] f = line.trim().split("\\s+");
                    byInode.put(f[9], "tcp " + f[1] + " -> " + f[2] + " state " + f[3]);
                }
            } catch (NoSuchFileException noIpv6) {
                if (!table.endsWith("6")) {
                    tablesUnread = table + ": no such file";
                }
            } catch (IOException | RuntimeException e) {
                tablesUnread = table + ": " + e;
            }
        }
        return byInode;
    }

    private static void sleep() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
