package clientbench.harness;

import clientbench.harness.record.JsonFiles;
import clientbench.stub.StubServer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The stub server in a JVM of its own, so the client JVM's profile holds the client alone, pinned by taskset to its
 * {@link CpuLayout} CPUs. Started on a free loopback port with {@code --control}, so the harness can ask for its counts
 * over stdin ({@link #stats()}, {@link #mark()}); {@link #close()} sends SIGTERM, then SIGKILL after 10 s. A stub the
 * launcher started for a round ({@link #SHARED}) is asked over its loopback control port, and outlives the trial.
 */
public final class StubProcess implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("listening on (\\S+)");
    private static final Pattern CONTROL = Pattern.compile("control on (\\S+):(\\d+)");
    /** How {@code --control} prefixes its answers. */
    private static final String STATS_PREFIX = "stats ";
    private static final long START_TIMEOUT_SECONDS = 30;

    /** How long {@link #stats()} waits for the stub's answer; it answers in microseconds when well. */
    private static final long STATS_TIMEOUT_SECONDS = 5;

    /** This JVM's child, or null for a stub another JVM started ({@link #shared}). */
    private final Process process;
    private final long pid;
    private final URI uri;
    private final String cpu;
    private final int ioThreads;
    private final boolean tls;
    /** Answers to 'stats' and 'mark', by the child's output or by the control port. */
    private final BlockingQueue<String> statsLines;
    /** The loopback control port ({@code --control-port}), or -1. */
    private final int controlPort;
    /** Where questions go: the child's standard input, or the control port's connection. */
    private final OutputStream questions;
    private final java.net.Socket controlSocket;
    private final List<String> output = new ArrayList<>();

    private StubProcess(Process process, long pid, URI uri, String cpu, int ioThreads, boolean tls,
                        BlockingQueue<String> statsLines, int controlPort, java.net.Socket controlSocket)
            throws IOException {
        this.process = process;
        this.pid = pid;
        this.uri = uri;
        this.cpu = cpu;
        this.ioThreads = ioThreads;
        this.tls = tls;
        this.statsLines = statsLines;
        this.controlPort = controlPort;
        this.controlSocket = controlSocket;
        this.questions = controlSocket != null ? controlSocket.getOutputStream() : process.getOutputStream();
    }

    /**
     * The forks' system property naming a stub the launcher started for a round ({@link #describe()}): a trial with
     * no target asks it, and leaves it running, instead of starting its own. Unset: each trial starts its own.
     */
    public static final String SHARED = "clientbench.stub.shared";

    /**
     * The fork's system property naming the stub's class path; unset, the fork's own. An upgrade's forks run on their
     * version's jar, while both arms' stubs run on the launcher's, so a bump of a library the stub shares (Netty) moves
     * the client alone.
     */
    public static final String CLASS_PATH = "clientbench.stub.classpath";

    static String classPath() {
        return System.getProperty(CLASS_PATH, System.getProperty("java.class.path"));
    }

    /**
     * @param tls serve TLS (ALPN h2 and http/1.1)
     * @param pin pin the stub to the last CPU when taskset exists and there is more than one CPU
     */
    public static StubProcess start(boolean tls, boolean pin) throws IOException, InterruptedException {
        CpuLayout layout = CpuLayout.plan(CpuLayout.allowedCpus(), pin);
        return start(tls, layout.pinned() ? layout.stubCpus() : null);
    }

    /**
     * @param tls serve TLS (ALPN h2 and http/1.1)
     * @param cpus the CPUs to pin the stub to, one event loop each; null: not pinned, one per core
     */
    public static StubProcess start(boolean tls, List<Integer> cpus) throws IOException, InterruptedException {
        return start(tls, cpus, clientbench.jvm.Jdk.current(), false);
    }

    /**
     * A stub for a round's forks to share: on {@code jdk} (the forks'), answering on a loopback control port too, and
     * ending with this JVM. The forks find it by {@link #SHARED} = {@link #describe()}.
     */
    public static StubProcess startShared(boolean tls, List<Integer> cpus, clientbench.jvm.Jdk jdk)
            throws IOException, InterruptedException {
        return start(tls, cpus, jdk, true);
    }

    private static StubProcess start(boolean tls, List<Integer> cpus, clientbench.jvm.Jdk jdk, boolean controlPort)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        String cpu = null;
        int ioThreads = Runtime.getRuntime().availableProcessors();
        if (cpus != null && !cpus.isEmpty() && taskset() != null) {
            cpu = CpuLayout.format(cpus);
            ioThreads = cpus.size();
            cmd.addAll(List.of(taskset(), "-c", cpu));
        }
        cmd.add(jdk.java().toString());
        cmd.addAll(jdk.flags());
        String classPath = classPath();
        String cds = System.getProperty("clientbench.cds", "");
        if (!cds.isBlank() && clientbench.jvm.Jdk.canArchiveClasses(classPath, Path.of(cds))) {
            // the fork's own archive folder (RunOptions.withClassDataSharing): startup only
            clientbench.jvm.ClientJvm.dropStale(Path.of(cds, "stub.jsa"), classPath);
            cmd.addAll(List.of("-XX:+AutoCreateSharedArchive", "-XX:SharedArchiveFile=" + Path.of(cds, "stub.jsa")));
        }
        cmd.addAll(List.of("-Xms256m", "-Xmx1g", "-cp", classPath,
                StubServer.class.getName(), "--port", "0", "--quiet", "--exit-with-parent", "--control",
                "--io-threads", Integer.toString(ioThreads)));
        if (tls) {
            cmd.add("--tls");
        }
        if (controlPort) {
            cmd.addAll(List.of("--control-port", "0"));
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        BlockingQueue<String> firstLines = new ArrayBlockingQueue<>(64);
        BlockingQueue<String> statsLines = new LinkedBlockingQueue<>();
        List<String> seen = new ArrayList<>();
        Thread pump = new Thread(() -> pump(p, firstLines, statsLines, seen), "stub-output");
        pump.setDaemon(true);
        pump.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
        int port = -1; // the stub says its control port before it says it listens
        while (System.nanoTime() < deadline) {
            String line = firstLines.poll(100, TimeUnit.MILLISECONDS);
            if (line != null) {
                Matcher c = CONTROL.matcher(line);
                if (c.find()) {
                    port = Integer.parseInt(c.group(2));
                }
                Matcher m = LISTENING.matcher(line);
                if (m.find() && (!controlPort || port > 0)) {
                    StubProcess stub = new StubProcess(p, p.pid(), URI.create(m.group(1)), cpu, ioThreads, tls,
                            statsLines, port, null);
                    synchronized (seen) {
                        stub.output.addAll(seen);
                    }
                    return stub;
                }
            } else if (!p.isAlive()) {
                break;
            }
        }
        p.destroyForcibly();
        synchronized (seen) {
            throw new IllegalStateException("stub server did not start within " + START_TIMEOUT_SECONDS
                    + " s; its output: " + String.join(" | ", seen));
        }
    }

    private static void pump(Process p, BlockingQueue<String> firstLines, BlockingQueue<String> statsLines,
                             List<String> seen) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith(STATS_PREFIX)) {
                    statsLines.offer(line.substring(STATS_PREFIX.length()));
                    continue;
                }
                firstLines.offer(line);
                synchronized (seen) {
                    if (seen.size() < 100) {
                        seen.add(line);
                    }
                }
            }
        } catch (IOException ignored) {
            // the stub ended
        }
    }

    /**
     * How a fork finds this stub ({@link #SHARED}): its address, control port, pid, TLS, CPUs and event loops; a stub
     * started without a control port cannot be shared.
     */
    public String describe() {
        if (controlPort < 0) {
            throw new IllegalStateException("a stub without a control port cannot be shared");
        }
        return String.join(";", uri.toString(), Integer.toString(controlPort), Long.toString(pid),
                Boolean.toString(tls), cpu == null ? "" : cpu, Integer.toString(ioThreads));
    }

    /**
     * The round's stub that {@link #SHARED} names, when it serves {@code tls} as asked; null when none is named or it
     * serves the other protocol (the trial starts its own). One that does not answer its control port is an error.
     */
    public static StubProcess shared(boolean tls) throws IOException {
        return shared(System.getProperty(SHARED, ""), tls);
    }

    /** As {@link #shared(boolean)}, for the stub that {@code described} ({@link #describe()}) names. */
    static StubProcess shared(String described, boolean tls) throws IOException {
        if (described.isBlank()) {
            return null;
        }
        String[] f = described.split(";", -1);
        if (f.length != 6) {
            throw new IllegalArgumentException(SHARED + " must be URI;PORT;PID;TLS;CPUS;IO_THREADS, was '" + described + "'");
        }
        if (Boolean.parseBoolean(f[3]) != tls) {
            return null;
        }
        int port = Integer.parseInt(f[1]);
        java.net.Socket s = new java.net.Socket();
        try {
            s.connect(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port), 5_000);
        } catch (IOException e) {
            s.close();
            throw new IOException("the round's stub (pid " + f[2] + ") does not answer on its control port " + port, e);
        }
        BlockingQueue<String> statsLines = new LinkedBlockingQueue<>();
        Thread pump = new Thread(() -> pumpAnswers(s, statsLines), "stub-control-answers");
        pump.setDaemon(true);
        pump.start();
        return new StubProcess(null, Long.parseLong(f[2]), URI.create(f[0]), f[4].isEmpty() ? null : f[4],
                Integer.parseInt(f[5]), tls, statsLines, port, s);
    }

    private static void pumpAnswers(java.net.Socket s, BlockingQueue<String> statsLines) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith(STATS_PREFIX)) {
                    statsLines.offer(line.substring(STATS_PREFIX.length()));
                }
            }
        } catch (IOException ignored) {
            // the connection closed
        }
    }

    /** Whether another JVM started this stub for a round's forks ({@link #shared}); closing leaves it running. */
    public boolean isShared() {
        return process == null;
    }

    /** Flags this JDK wants: see {@link clientbench.jvm.Jdk#flags()}. */
    public static List<String> jdkFlags() {
        return clientbench.jvm.Jdk.current().flags();
    }

    /** Flags a JDK of {@code feature} wants: see {@link clientbench.jvm.Jdk#flags(int)}. */
    public static List<String> jdkFlags(int feature) {
        return clientbench.jvm.Jdk.flags(feature);
    }

    /** The taskset binary, or null. */
    public static String taskset() {
        for (String dir : List.of("/usr/bin", "/bin", "/usr/sbin")) {
            if (Files.isExecutable(Path.of(dir, "taskset"))) {
                return dir + "/taskset";
            }
        }
        return null;
    }

    public URI uri() {
        return uri;
    }

    /** The CPUs the stub is pinned to (taskset's list form), or null when it is not pinned. */
    public String cpu() {
        return cpu;
    }

    /** Its event-loop threads: the CPUs it may keep busy. */
    public int ioThreads() {
        return ioThreads;
    }

    public long pid() {
        return pid;
    }

    /** The stub's own counts now (peaks since the last {@link #mark()}); null when it does not answer. */
    public StubServer.Stats stats() {
        return ask("stats");
    }

    /** The stub's counts now, then a new window for its peaks and used connections; null when it does not answer. */
    public StubServer.Stats mark() {
        return ask("mark");
    }

    private synchronized StubServer.Stats ask(String command) {
        statsLines.clear(); // a late answer to an earlier question that timed out
        try {
            questions.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            questions.flush();
            String json = statsLines.poll(STATS_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (json == null) {
                System.err.println("clientbench: the stub did not answer '" + command + "' within " + STATS_TIMEOUT_SECONDS + " s");
                return null;
            }
            return JsonFiles.MAPPER.readValue(json, StubServer.Stats.class);
        } catch (IOException e) {
            System.err.println("clientbench: cannot ask the stub '" + command + "': " + e.getMessage());
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    @Override
    public void close() {
        if (process == null) {
            try {
                controlSocket.close(); // the round's stub runs on for its next fork
            } catch (IOException ignored) {
                // closed already
            }
            return;
        }
        if (!process.isAlive()) {
            return;
        }
        process.toHandle().destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
