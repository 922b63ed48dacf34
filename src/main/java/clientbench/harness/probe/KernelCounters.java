package clientbench.harness.probe;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * This JVM's system calls and context switches over a window, all threads, by {@code perf stat} (software events: they
 * need no hardware counters, and do not vary with the CPU model). perf times {@code sh -c 'echo ready; read _'}:
 * "ready" means counting began, closing its input ends it. Without perf, -1, never guessed.
 */
public final class KernelCounters {

    /** The events, as perf names them; their order is the order of {@link Counts}. */
    static final List<String> EVENTS = List.of("raw_syscalls:sys_enter", "context-switches");
    private static final String READY = "ready\n";
    private static final long START_TIMEOUT_MILLIS = 2_000;
    private static final long STOP_TIMEOUT_MILLIS = 2_000;
    private static volatile String unavailable;

    private KernelCounters() {
    }

    /** One window's counts; -1 where unknown. */
    public record Counts(long syscalls, long contextSwitches) {
        public static final Counts ABSENT = new Counts(-1, -1);
    }

    /** Why the counts are absent in this JVM (perf missing or refused), or null while they work. */
    public static String unavailable() {
        return unavailable;
    }

    /** For each trial's settings: how the counts were taken over {@code window}, or why they are absent. */
    public static String describe(String window) {
        String why = unavailable;
        return why == null ? "perf stat -e " + String.join(",", EVENTS) + " -p <client JVM> over " + window
                : "absent: " + why;
    }

    /** Starts counting this process; a window that cannot count returns absent counts at its stop. */
    public static Window start() {
        if (unavailable != null) {
            return Window.NONE;
        }
        Path out = null;
        Process perf = null;
        try {
            out = Files.createTempFile("clientbench-perf-", ".csv");
            perf = new ProcessBuilder("perf", "stat", "-x,", "-e", String.join(",", EVENTS), "-p",
                    Long.toString(ProcessHandle.current().pid()), "-o", out.toString(), "--", "sh", "-c", "echo ready; read _")
                    .start();
            // Bounded: perf that neither says ready nor exits is given up on, not waited for.
            InputStream in = perf.getInputStream();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MILLIS);
            while (in.available() < READY.length() && perf.isAlive() && System.nanoTime() - deadline < 0) {
                Thread.sleep(1);
            }
            String said = new String(in.readNBytes(in.available()), StandardCharsets.UTF_8).strip();
            if (!READY.strip().equals(said)) {
                return giveUp(perf, out, "perf stat could not count this process: " + whyNot(perf));
            }
            return new Window(perf, out);
        } catch (IOException e) {
            return giveUp(perf, out, "perf not found or not runnable: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return giveUp(perf, out, "interrupted while perf started");
        }
    }

    /** perf's first line on stderr and its exit, or that it hung. */
    private static String whyNot(Process perf) throws IOException {
        if (perf.isAlive()) {
            return "it did not start counting within " + START_TIMEOUT_MILLIS + " ms";
        }
        String err = new String(perf.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        return (err.isEmpty() ? "" : err.lines().findFirst().orElse("") + " ") + "(exit " + perf.exitValue() + ")";
    }

    private static Window giveUp(Process perf, Path out, String why) {
        unavailable = why;
        if (perf != null) {
            perf.destroyForcibly();
        }
        delete(out);
        return Window.NONE;
    }

    private static void delete(Path out) {
        if (out != null) {
            try {
                Files.deleteIfExists(out);
            } catch (IOException e) {
                // a temporary file left in /tmp is harmless
            }
        }
    }

    /** Parses perf's CSV ({@code value,unit,event,...}): the counts of {@link #EVENTS}, -1 for one not counted. */
    static Counts parse(List<String> lines) {
        long[] v = {-1, -1};
        for (String line : lines) {
            String[] f = line.split(",");
            if (f.length < 3 || line.startsWith("#")) {
                continue;
            }
            int i = EVENTS.indexOf(f[2]);
            if (i >= 0 && f[0].matches("\\d+")) {
                v[i] = Long.parseLong(f[0]);
            }
        }
        return new Counts(v[0], v[1]);
    }

    /** A window being counted. */
    public static final class Window {
        public static final Window NONE = new Window(null, null);
        private final Process perf;
        private final Path out;

        private Window(Process perf, Path out) {
            this.perf = perf;
            this.out = out;
        }

        /** Ends the count (perf's timer reads end of input) and returns it; absent when perf failed. */
        public Counts stop() {
            if (perf == null) {
                return Counts.ABSENT;
            }
            try {
                perf.getOutputStream().close();
                if (!perf.waitFor(STOP_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)) {
                    perf.destroyForcibly();
                    return Counts.ABSENT;
                }
                return parse(Files.readAllLines(out, StandardCharsets.UTF_8));
            } catch (IOException e) {
                return Counts.ABSENT;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                perf.destroyForcibly();
                return Counts.ABSENT;
            } finally {
                delete(out);
            }
        }
    }
}
