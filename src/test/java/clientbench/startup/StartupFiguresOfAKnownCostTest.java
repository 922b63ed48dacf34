package clientbench.startup;

import clientbench.jvm.Jdk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cold start and memory at rest against probes of a known cost, through the same plan, JVM and record as a real start:
 * a probe that sleeps a known time before its client starts is that much later to its first response, and
 * one that holds a known number of bytes has that much more heap in use and resident after the first request.
 */
@Timeout(180)
class StartupFiguresOfAKnownCostTest {

    static final long SLEEP_MILLIS = 1_500;
    static final int HELD_BYTES = 64 << 20;
    /** Heap after a full collection differs by less than this between two starts of the same probe. */
    static final long HEAP_SLACK_BYTES = 4 << 20;
    /**
     * Resident memory outside the heap (the JIT's and malloc's arenas, stacks) differs between two starts of the same
     * probe by what each touched before the read: 6 MiB seen beside a CPU hog (75-81 and 139-145 MiB), so 16 allowed.
     */
    static final long RSS_SLACK_BYTES = 16 << 20;
    /** noop: its first response needs no server, so the cost measured is the JVM's and the probe's alone. */
    static final String CLIENT = "noop";
    static final String NO_SERVER = "http://127.0.0.1:9/";

    @TempDir
    Path dir;

    /**
     * What lies in a start's figure beyond its launch-to-main time, the probe's build and first request, and any sleep:
     * the probe's argument parsing and first classes before its build, less the callback's return: 26-98 ms here at a
     * load average of 10 on 2 cores, 300 ms allowed. A figure off by more than that constant, or missing the sleep, fails.
     */
    static final double REST_MIN_MILLIS = -20;
    static final double REST_MAX_MILLIS = 300;

    /** Stamps the wall clock as its main begins (epoch us, into {@link #stampOf} its pid), then runs the probe. */
    public static final class StampsItsMain {
        public static void main(String[] args) throws Exception {
            stamp();
            StartupProbe.main(args);
        }
    }

    /** Stamps as {@link StampsItsMain}, then sleeps {@link #SLEEP_MILLIS} before the probe builds its client. */
    public static final class SleepsFirst {
        public static void main(String[] args) throws Exception {
            stamp();
            Thread.sleep(SLEEP_MILLIS);
            StartupProbe.main(args);
        }
    }

    static void stamp() throws Exception {
        long now = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
        Files.writeString(stampOf(ProcessHandle.current().pid()), Long.toString(now));
    }

    static Path stampOf(long pid) {
        return Path.of(System.getProperty("java.io.tmpdir"), "clientbench-main-stamp-" + pid);
    }

    /** A start's figure less what its own clocks account for: launch to main (the stamp), build and first request. */
    static double rest(Started s) throws Exception {
        Path stamp = stampOf(s.ended().pid());
        long mainEpochMicros = Long.parseLong(Files.readString(stamp).strip());
        Files.delete(stamp);
        StartRecord r = s.record();
        return r.startToFirstResponseMs() - (mainEpochMicros - s.ended().launchEpochMicros()) / 1e3 - r.buildMs()
                - r.firstRequestMs();
    }

    /** Holds {@link #HELD_BYTES}, every page written, while the probe runs. */
    public static final class HoldsBytes {
        static byte[] held;

        public static void main(String[] args) throws Exception {
            held = new byte[HELD_BYTES];
            for (int i = 0; i < held.length; i += 4096) {
                held[i] = 1;
            }
            StartupProbe.main(args);
        }
    }

    StartRecord start(String mainClass) throws Exception {
        return started(mainClass).record();
    }

    record Started(ProbeJvm.Ended ended, StartRecord record) {
    }

    Started started(String mainClass) throws Exception {
        StartupPlan plan = StartupPlan.of(List.of(CLIENT), 1, Jdk.current(), dir).withRequestsAfterFirst(0);
        if (mainClass != null) {
            plan = plan.withMainClass(mainClass);
        }
        ProbeJvm.Ended e = ProbeJvm.run(plan.command(CLIENT, false, NO_SERVER, 1), plan.bound(), new AtomicReference<>());
        assertNotNull(e.report(), e.problem());
        StartRecord r = StartRecord.of(1, 1, false, null, e, null);
        assertTrue(r.ok(), r.failure());
        return new Started(e, r);
    }

    /**
     * Each start against clocks of its own, so that the host's slowing of one start (a plain noop start took 217-1,142
     * ms here beside other builds) cancels: the plain start's figure is its own times and a small rest, the sleeping
     * one's that and the sleep, so it is later than the plain one by the sleep and what their rests differ by.
     */
    @Test
    void aStartThatSleepsAKnownTimeIsThatMuchLaterToItsFirstResponse() throws Exception {
        Started plain = started(StampsItsMain.class.getName());
        Started sleeps = started(SleepsFirst.class.getName());
        double plainRest = rest(plain);
        double sleepsRest = rest(sleeps) - SLEEP_MILLIS;
        String both = plain.record() + " then " + sleeps.record();
        assertTrue(plainRest >= REST_MIN_MILLIS && plainRest <= REST_MAX_MILLIS, "plain: " + plainRest + " ms unaccounted: " + both);
        assertTrue(sleepsRest >= REST_MIN_MILLIS && sleepsRest <= REST_MAX_MILLIS, "sleeping: " + sleepsRest + " ms unaccounted"
                + " beside the sleep: " + both);
        for (StartRecord r : List.of(plain.record(), sleeps.record())) {
            assertTrue(r.startToFirstResponseMs() > 0 && r.startToFirstResponseMs() < r.wallMs(), "within the JVM's own life: " + r);
        }
    }

    @Test
    void aClientHoldingKnownBytesHasThemInItsHeapAndResidentSet() throws Exception {
        StartRecord plain = start(null);
        StartRecord holds = start(HoldsBytes.class.getName());
        long heap = holds.afterFirst().heapUsedBytes() - plain.afterFirst().heapUsedBytes();
        assertEquals(HELD_BYTES, heap, HEAP_SLACK_BYTES, "heap in use after a full collection, more by the bytes held");
        long rss = holds.afterFirst().rssBytes() - plain.afterFirst().rssBytes();
        assertEquals(HELD_BYTES, rss, RSS_SLACK_BYTES, "resident, every page written: " + (rss >> 20) + " MiB more");
    }
}
