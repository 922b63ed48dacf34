package clientbench.startup;

import clientbench.harness.CpuLayout;
import clientbench.harness.record.JsonFiles;
import clientbench.harness.StubProcess;
import clientbench.jvm.ClientJvm;
import clientbench.jvm.Jdk;
import clientbench.stub.StubServer;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Cold starts, interleaved: against one stub in its own JVM, round after round, every client starts once per
 * condition (without its archive, and with it) in a new order each round, drawn from the plan's seed, so that a slow
 * spell of the host costs every client alike. Every start is kept in {@code startup.json}, a failed one with its reason.
 */
public final class StartupRun {

    public static final String FILE = "startup.json";
    /** The longest progress line. */
    static final int LINE_CHARS = 120;

    private StartupRun() {
    }

    /** {@link StartupPlan#of} under {@code clientbench.root} (the launcher's checkout), then {@link #run(StartupPlan, Path, PrintStream)}. */
    public static StartupResult run(List<String> clients, int starts, Path runDir, Jdk jdk, PrintStream progress)
            throws IOException, InterruptedException {
        Path root = Path.of(System.getProperty("clientbench.root", "."));
        return run(StartupPlan.of(clients, starts, jdk, root), runDir, progress);
    }

    /** Runs the plan; {@code runDir/startup.json} after each round; one progress line per start. */
    public static StartupResult run(StartupPlan plan, Path runDir, PrintStream progress) throws IOException, InterruptedException {
        CpuLayout layout = CpuLayout.plan(CpuLayout.allowedCpus(), true);
        AtomicReference<Process> current = new AtomicReference<>();
        Thread hook = new Thread(() -> {
            Process p = current.get();
            if (p != null) {
                p.destroyForcibly(); // an interrupted run leaves no probe JVM behind
            }
        }, "startup-probe-kill");
        Runtime.getRuntime().addShutdownHook(hook);
        try (StubProcess stub = StubProcess.start(false, layout.pinned() ? layout.stubCpus() : null)) {
            Starter starter = new Starter(plan, stub, layout.ioThreads(), current);
            List<String> prepared = starter.prepare();
            Map<String, List<StartRecord>> records = new LinkedHashMap<>();
            plan.clients().forEach(c -> records.put(c, new ArrayList<>()));
            Random orders = new Random(plan.seed());
            StartupResult result = result(plan, layout, stub, prepared, records, 0, null);
            String javaVersion = null;
            for (int round = 1; round <= plan.starts(); round++) {
                List<Map.Entry<String, Boolean>> entries = new ArrayList<>();
                for (String c : plan.clients()) {
                    plan.conditions(round).forEach(cds -> entries.add(Map.entry(c, cds)));
                }
                Collections.shuffle(entries, orders);
                for (int i = 0; i < entries.size(); i++) {
                    String client = entries.get(i).getKey();
                    StartRecord r = starter.start(round, i + 1, client, entries.get(i).getValue());
                    records.get(client).add(r);
                    javaVersion = javaVersion != null ? javaVersion : starter.javaVersion;
                    progress.println(line(plan, client, r));
                }
                result = result(plan, layout, stub, prepared, records, round, javaVersion);
                JsonFiles.writeAtomically(runDir.resolve(FILE), result);
            }
            return result;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs
            }
        }
    }

    private static StartupResult result(StartupPlan plan, CpuLayout layout, StubProcess stub, List<String> prepared,
                                        Map<String, List<StartRecord>> records, int rounds, String javaVersion) {
        String cds = plan.archiveDir() == null
                ? "none: the JDK is older than 19, the class path holds more than jars, or the archive folder cannot be written"
                : "each client also starts with its own archive, " + String.join(" ", ClientJvm.archiveArgs(plan.archiveDir(), "<client>"))
                + ", the benchmark forks' (made by a start before the first round where missing or older than the class path)";
        Map<String, List<StartRecord>> copy = new LinkedHashMap<>();
        records.forEach((c, r) -> copy.put(c, List.copyOf(r)));
        return new StartupResult(plan.jdk().java().toString(), javaVersion, ClientJvm.args(plan.jdk()), cds,
                "GET " + stub.uri().resolve(StartupProbe.PATH) + " (" + StartupProbe.BODY_BYTES + "-byte body)",
                plan.requestsAfterFirst(), plan.bound().toSeconds(), layout.ioThreads(), stub.cpu(), plan.starts(),
                plan.archiveStarts(), plan.requestStarts(), rounds,
                plan.seed(), prepared, copy);
    }

    /** One line per start, at most {@link #LINE_CHARS}. */
    static String line(StartupPlan plan, String client, StartRecord r) {
        String what = r.ok()
                ? String.format(Locale.ROOT, "%.0f ms to first response (build %.0f ms), %d classes, %.0f MB resident",
                r.startToFirstResponseMs(), r.buildMs(), r.classesLoaded(), r.afterFirst().rssBytes() / 1e6)
                : "failed: " + r.failure();
        String s = String.format(Locale.ROOT, "startup %d/%d  %-10s %-6s %s", r.round(), plan.starts(), client,
                r.cds() ? "cds" : "no cds", what);
        return s.length() <= LINE_CHARS ? s : s.substring(0, LINE_CHARS - 3) + "...";
    }

    /** Starts probe JVMs against the stub and records each. */
    private static final class Starter {
        private final StartupPlan plan;
        private final StubProcess stub;
        private final int ioThreads;
        private final AtomicReference<Process> current;
        String javaVersion;

        Starter(StartupPlan plan, StubProcess stub, int ioThreads, AtomicReference<Process> current) {
            this.plan = plan;
            this.stub = stub;
            this.ioThreads = ioThreads;
            this.current = current;
        }

        /**
         * Before the first round, not recorded: one start of noop, so that the first measured start does not alone
         * read the JDK and the jar from disk; where starts use archives, one start with its archive of each client whose
         * archive is missing or older than the class path (then deleted first: {@link ClientJvm#dropStale}), which
         * writes it as the JVM exits.
         */
        List<String> prepare() throws IOException, InterruptedException {
            List<String> done = new ArrayList<>();
            ProbeJvm.Ended warm = ProbeJvm.run(plan.command(clientbench.adapters.Adapters.NOOP, false,
                    stub.uri().toString(), ioThreads), plan.bound(), current);
            done.add("noop once without its archive, to read the JDK and the class path from disk"
                    + (warm.problem() == null ? "" : " (" + warm.problem() + ")"));
            if (plan.archiveDir() == null || plan.archiveStarts() == 0) {
                return done; // none to write: a fork writes its own, of its own classes
            }
            for (String c : plan.clients()) {
                Path archive = ClientJvm.archive(plan.archiveDir(), c);
                boolean stale = ClientJvm.dropStale(archive, plan.classPath());
                if (Files.isRegularFile(archive)) {
                    continue;
                }
                ProbeJvm.run(plan.command(c, true, stub.uri().toString(), ioThreads), plan.bound(), current);
                done.add(c + " once with its archive, to write " + archive.getFileName() + (stale ? " anew (older than the"
                        + " class path)" : "") + (Files.isRegularFile(archive) ? "" : ": none was written (its starts with cds say so)"));
            }
            return done;
        }

        StartRecord start(int round, int order, String client, boolean cds) throws IOException, InterruptedException {
            Path archive = cds ? ClientJvm.archive(plan.archiveDir(), client) : null;
            FileTime before = archive != null && Files.isRegularFile(archive) ? Files.getLastModifiedTime(archive) : null;
            StubServer.Stats mark = stub.mark();
            ProbeJvm.Ended e = ProbeJvm.run(plan.command(client, cds, stub.uri().toString(), ioThreads,
                    plan.requestsIn(round)), plan.bound(), current);
            StubServer.Stats after = stub.stats();
            Long stubRequests = mark == null || after == null ? null : after.requests() - mark.requests();
            Boolean used = null;
            if (archive != null && e.exitCode() != null) {
                used = before != null && !e.archiveRefused() && Files.isRegularFile(archive)
                        && before.equals(Files.getLastModifiedTime(archive));
            }
            if (javaVersion == null && e.report() != null) {
                javaVersion = e.report().javaVersion();
            }
            return StartRecord.of(round, order, cds, used, e, stubRequests);
        }
    }
}
