package clientbench.startup;

import clientbench.harness.record.JsonFiles;
import clientbench.jvm.OutputLines;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;

/**
 * One probe JVM: started from its command line, bounded in time and killed by its PID when it outlives the bound,
 * its report read from the line it prints.
 */
final class ProbeJvm {

    /** Stderr lines kept for the reason of a start that did not report; the JVM's lines on class data sharing kept. */
    private static final int TAIL_LINES = 5;
    /** The JVM's unified logging of its class data sharing: {@code [0.06s][error][cds] ...}. */
    private static final Pattern CDS_LOG = Pattern.compile("^\\[[^\\]]*\\]\\[\\w+\\s*\\]\\[cds");

    private ProbeJvm() {
    }

    /**
     * What came of one probe JVM. {@code report} is null when it printed nothing (a crash, or killed), {@code problem}
     * then saying why with its last stderr lines; {@code exitCode} is null when killed; {@code cdsLog}: what it logged
     * about class data sharing, at most {@link #TAIL_LINES} lines.
     */
    record Ended(long pid, long launchEpochMicros, ProbeReport report, Integer exitCode, double wallMs, String problem,
                 List<String> cdsLog) {

        /** Whether the JVM said it could not use the archive it was given. */
        boolean archiveRefused() {
            return cdsLog.stream().anyMatch(l -> l.contains("Unable to use shared archive"));
        }
    }

    /** Runs {@code command} to its end or to {@code bound}, whichever comes first. */
    static Ended run(List<String> command, Duration bound, AtomicReference<Process> current)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command);
        // The cold start's zero: the wall clock just before the process exists, when a user starting `java` begins to
        // wait (RuntimeMXBean's start time leaves out process creation and JVM startup). The probe stamps its first
        // response on the same host's clock, so the difference is that wait.
        long launchEpochMicros = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
        long startNanos = System.nanoTime();
        Process p = pb.start();
        current.set(p);
        try {
            AtomicReference<String> line = new AtomicReference<>();
            Deque<String> tail = new ArrayDeque<>();
            List<String> cds = Collections.synchronizedList(new ArrayList<>());
            Thread out = OutputLines.drain(p.getInputStream(), l -> {
                if (l.startsWith(StartupProbe.LINE_PREFIX)) {
                    line.set(l.substring(StartupProbe.LINE_PREFIX.length()));
                }
                if (CDS_LOG.matcher(l).find() && cds.size() < TAIL_LINES) {
                    cds.add(l);
                }
            }, "probe-output");
            Thread err = OutputLines.drain(p.getErrorStream(), l -> {
                synchronized (tail) {
                    tail.addLast(l);
                    if (tail.size() > TAIL_LINES) {
                        tail.removeFirst();
                    }
                }
            }, "probe-output");
            boolean ended = p.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS);
            if (!ended) {
                p.destroyForcibly(); // SIGKILL to the JVM's own PID: nothing else is touched
                p.waitFor(10, TimeUnit.SECONDS);
            }
            double wallMs = (System.nanoTime() - startNanos) / 1e6;
            out.join(TimeUnit.SECONDS.toMillis(5));
            err.join(TimeUnit.SECONDS.toMillis(5));
            String stderr;
            synchronized (tail) {
                stderr = tail.isEmpty() ? "" : "; its last stderr: " + String.join(" | ", tail);
            }
            if (!ended) {
                return new Ended(p.pid(), launchEpochMicros, null, null, wallMs,
                        "killed after " + bound.toSeconds() + " s, its bound, without a report" + stderr, List.copyOf(cds));
            }
            ProbeReport report = line.get() == null ? null : JsonFiles.MAPPER.readValue(line.get(), ProbeReport.class);
            String problem = report != null ? null : "exited with status " + p.exitValue() + " without a report" + stderr;
            return new Ended(p.pid(), launchEpochMicros, report, p.exitValue(), wallMs, problem, List.copyOf(cds));
        } finally {
            current.set(null);
            if (p.isAlive()) {
                p.destroyForcibly();
            }
        }
    }
}
