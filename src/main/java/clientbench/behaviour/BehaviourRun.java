package clientbench.behaviour;

import clientbench.adapters.Adapters;
import clientbench.harness.CpuLayout;
import clientbench.harness.record.JsonFiles;
import clientbench.harness.record.Thresholds;
import clientbench.jvm.ClientJvm;
import clientbench.jvm.Jdk;
import clientbench.jvm.OutputLines;
import com.fasterxml.jackson.core.type.TypeReference;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Every client through every case, each client in a fresh JVM ({@link BehaviourProbe}), {@code parallel} JVMs at a
 * time, the longest first ({@link StartOrder}): the cases are judged by counts, so clients may run side by side. A JVM
 * past {@link #BOUND} is killed by its PID and kept as a failure; {@code behaviour.json} holds the cases' definitions
 * and every client's results.
 */
public final class BehaviourRun {

    public static final String FILE = "behaviour.json";
    /** Far past a client's cases (each bounded, about 10 s at once) on a busy machine. */
    static final Duration BOUND = Duration.ofSeconds(120);
    /**
     * C1 only: a case's JVM lives seconds and measures no speed, and C2's compiles were most of its CPU (vertx: 6.1 of
     * 13.4 s), with 4 JVMs sharing 2 cores. What a case counts is the library's logic, whatever tier runs it.
     */
    static final String C1_ONLY = "-XX:TieredStopAtLevel=1";
    /** The JDK's connect retry as shipped; the benchmarks' JVMs turn it off (JdkClients). */
    static final String JDK_AS_SHIPPED = "-Djdk.httpclient.disableRetryConnect=false";
    private static final int TAIL_LINES = 5;

    private BehaviourRun() {
    }

    /** One client's JVM: its cases' results, or why there are none. */
    public record ClientResult(boolean ok, String failure, long pid, double wallMs, Map<String, CaseResult> cases) {
    }

    /**
     * One client JVM of a run: its name in behaviour.json, the client it runs, and the jar it runs on (null: this JVM's
     * class path). An upgrade's two versions are two subjects of one client, each on its version's jar.
     */
    public record Subject(String name, String client, Path jar) {
    }

    /** Runs {@code clients} ({@code noop} is skipped: it has no behaviour), writes {@code runDir/behaviour.json}. */
    public static Map<String, Object> run(List<String> clients, Jdk jdk, int parallel, Path runDir, PrintStream progress)
            throws IOException, InterruptedException {
        return runSubjects(clients.stream().filter(c -> !Adapters.NOOP.equals(c)).map(c -> new Subject(c, c, null)).toList(),
                jdk, parallel, runDir, progress);
    }

    /**
     * Runs each subject's JVM on its class path, {@code parallel} at a time, the longest in the run folders beside
     * {@code runDir} first; writes {@code runDir/behaviour.json}, its clients in the order given.
     */
    public static Map<String, Object> runSubjects(List<Subject> subjects, Jdk jdk, int parallel, Path runDir,
                                                  PrintStream progress) throws IOException, InterruptedException {
        long start = System.nanoTime();
        int ioThreads = CpuLayout.plan(CpuLayout.allowedCpus(), true).ioThreads();
        Map<String, Subject> byName = new LinkedHashMap<>();
        subjects.forEach(s -> byName.put(s.name(), s));
        List<String> names = List.copyOf(byName.keySet());
        List<String> startOrder = StartOrder.longestFirst(names,
                StartOrder.earlierWallMs(runDir.toAbsolutePath().getParent(), runDir, names));
        Map<String, Future<ClientResult>> running = new LinkedHashMap<>();
        try (ExecutorService jvms = Executors.newFixedThreadPool(Math.max(1, parallel),
                Thread.ofPlatform().name("behaviour-jvm-", 0).daemon().factory())) {
            for (String name : startOrder) { // the pool starts its tasks in the order they are given
                Subject s = byName.get(name);
                String classPath = s.jar() == null ? System.getProperty("java.class.path") : s.jar().toString();
                running.put(name, jvms.submit(() -> {
                    ClientResult r = probe(command(jdk, classPath, s.client(), ioThreads));
                    progress.println(line(name, r));
                    return r;
                }));
            }
        }
        Map<String, ClientResult> results = new LinkedHashMap<>();
        for (String name : names) {
            try {
                results.put(name, running.get(name).get());
            } catch (java.util.concurrent.ExecutionException x) {
                results.put(name, new ClientResult(false, "could not run: " + x.getCause(), -1, 0, Map.of()));
            }
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("definitions", definitions());
        json.put("jdk", jdk.java().toString());
        json.put("jvmArgs", jvmArgs(jdk));
        json.put("ioThreads", ioThreads);
        json.put("parallelJvms", parallel);
        json.put("startOrder", startOrder);
        json.put("wallSeconds", Math.round((System.nanoTime() - start) / 1e7) / 100.0);
        json.put("clients", results);
        Map<String, String> jars = new LinkedHashMap<>();
        subjects.stream().filter(x -> x.jar() != null).forEach(x -> jars.put(x.name(), x.jar().toString()));
        if (!jars.isEmpty()) {
            json.put("jars", jars); // the class path each named client ran on, where it is not the launcher's
        }
        JsonFiles.writeAtomically(runDir.resolve(FILE), json);
        return json;
    }

    /** How many cases each client goes through. */
    public static int cases() {
        return BehaviourCases.all().size();
    }

    /** For the time-left estimate: 28 s a client JVM (its start, its cases' bounded waits), {@code parallel} at once. */
    public static long estimatedSeconds(int clients, int parallel) {
        return 28L * ((clients + parallel - 1) / Math.max(1, parallel));
    }

    /** Each case's key, tuning and what it provokes; each tuning's meaning. */
    static Map<String, Object> definitions() {
        List<Map<String, Object>> cases = new ArrayList<>();
        for (BehaviourCase c : BehaviourCases.all()) {
            cases.add(Map.of("key", c.key(), "revision", Thresholds.behaviourRevision(c.key()), "tuning", c.tuning().label(),
                    "provokes", c.provokes()));
        }
        Map<String, String> tunings = new LinkedHashMap<>();
        for (clientbench.api.Tuning t : clientbench.api.Tuning.values()) {
            tunings.put(t.label(), t.meaning());
        }
        return Map.of("cases", cases, "tunings", tunings,
                "keys", "each request carries an Idempotency-Key; the stub counts the times it read each");
    }

    static List<String> jvmArgs(Jdk jdk) {
        List<String> a = new ArrayList<>(ClientJvm.args(jdk));
        a.add(JDK_AS_SHIPPED);
        a.add(C1_ONLY);
        return a;
    }

    /** The client's JVM on this JVM's class path: every case, or only those named. */
    static List<String> command(Jdk jdk, String client, int ioThreads, String... cases) {
        return command(jdk, System.getProperty("java.class.path"), client, ioThreads, cases);
    }

    /** The client's JVM on {@code classPath} (a version's jar: the library it holds is the one loaded). */
    static List<String> command(Jdk jdk, String classPath, String client, int ioThreads, String... cases) {
        List<String> cmd = new ArrayList<>(List.of(jdk.java().toString()));
        cmd.addAll(jvmArgs(jdk));
        cmd.addAll(List.of("-cp", classPath, BehaviourProbe.class.getName(), client,
                Integer.toString(ioThreads)));
        cmd.addAll(List.of(cases));
        return cmd;
    }

    /** Runs one client's JVM to its end or to {@link #BOUND}, and reads its line. */
    static ClientResult probe(List<String> command) throws IOException, InterruptedException {
        long start = System.nanoTime();
        Process p = new ProcessBuilder(command).start();
        try {
            AtomicReference<String> line = new AtomicReference<>();
            Deque<String> tail = new ArrayDeque<>();
            Thread out = OutputLines.drain(p.getInputStream(), l -> {
                if (l.startsWith(BehaviourProbe.LINE_PREFIX)) {
                    line.set(l.substring(BehaviourProbe.LINE_PREFIX.length()));
                }
            }, "behaviour-output");
            Thread err = OutputLines.drain(p.getErrorStream(), l -> {
                synchronized (tail) {
                    tail.addLast(l);
                    if (tail.size() > TAIL_LINES) {
                        tail.removeFirst();
                    }
                }
            }, "behaviour-output");
            boolean ended = p.waitFor(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            if (!ended) {
                p.destroyForcibly(); // its own PID: nothing else is touched
                p.waitFor(10, TimeUnit.SECONDS);
            }
            out.join(5_000);
            err.join(5_000);
            double wallMs = (System.nanoTime() - start) / 1e6;
            String stderr;
            synchronized (tail) {
                stderr = tail.isEmpty() ? "" : "; its last stderr: " + String.join(" | ", tail);
            }
            if (line.get() == null) {
                return new ClientResult(false, (ended ? "exited with status " + p.exitValue() : "killed after "
                        + BOUND.toSeconds() + " s, its bound") + " without results" + stderr, p.pid(), wallMs, Map.of());
            }
            Map<String, CaseResult> cases = JsonFiles.MAPPER.readValue(line.get(), new TypeReference<>() { });
            return new ClientResult(true, null, p.pid(), wallMs, cases);
        } finally {
            if (p.isAlive()) {
                p.destroyForcibly();
            }
        }
    }

    /** One progress line per client: its cases run, not applicable and failed, and its wall time. */
    static String line(String client, ClientResult r) {
        if (!r.ok()) {
            return String.format(Locale.ROOT, "[behaviour] %-10s FAILED: %s", client, r.failure());
        }
        long ran = r.cases().values().stream().filter(c -> c.figures() != null).count();
        long na = r.cases().values().stream().filter(c -> c.notApplicable() != null).count();
        List<String> failed = r.cases().entrySet().stream().filter(e -> e.getValue().failure() != null).map(Map.Entry::getKey).toList();
        return String.format(Locale.ROOT, "[behaviour] %-10s %d cases ran%s%s in %.1f s", client, ran,
                na == 0 ? "" : ", " + na + " not applicable", failed.isEmpty() ? "" : ", FAILED: " + String.join(", ", failed),
                r.wallMs() / 1e3);
    }
}
