package clientbench.startup;

import clientbench.jvm.Jdk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cold start and memory at rest against probes of a known cost, through the same plan, JVM and record as a real start:
 * a probe that sleeps a known time before its client starts is at least that much later to its first response, and
 * one that holds a known number of bytes has that much more heap in use and resident after the first request.
 */
@Timeout(180)
class StartupFiguresOfAKnownCostTest {

    static final long SLEEP_MILLIS = 1_500;
    static final int HELD_BYTES = 64 << 20;
    /** Heap after a full collection differs by less than this between two starts of the same probe. */
    static final long HEAP_SLACK_BYTES = 4 << 20;
    /** noop: its first response needs no server, so the cost measured is the JVM's and the probe's alone. */
    static final String CLIENT = "noop";
    static final String NO_SERVER = "http://127.0.0.1:9/";

    @TempDir
    Path dir;

    /** Sleeps {@link #SLEEP_MILLIS} before the probe builds its client. */
    public static final class SleepsFirst {
        public static void main(String[] args) throws Exception {
            Thread.sleep(SLEEP_MILLIS);
            StartupProbe.main(args);
        }
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
        StartupPlan plan = StartupPlan.of(List.of(CLIENT), 1, Jdk.current(), dir).withRequestsAfterFirst(0);
        if (mainClass != null) {
            plan = plan.withMainClass(mainClass);
        }
        ProbeJvm.Ended e = ProbeJvm.run(plan.command(CLIENT, false, NO_SERVER, 1), plan.bound(), new AtomicReference<>());
        assertNotNull(e.report(), e.problem());
        StartRecord r = StartRecord.of(1, 1, false, null, e, null);
        assertTrue(r.ok(), r.failure());
        return r;
    }

    @Test
    void aStartThatSleepsAKnownTimeIsThatMuchLaterToItsFirstResponse() throws Exception {
        StartRecord plain = start(null);
        StartRecord sleeps = start(SleepsFirst.class.getName());
        // A lower bound only: the sleep is inside the measured span whatever else the host does to either start.
        assertTrue(sleeps.startToFirstResponseMs() >= SLEEP_MILLIS, sleeps.startToFirstResponseMs() + " ms");
        assertTrue(sleeps.startToFirstResponseMs() < sleeps.wallMs(), "within the JVM's own life: " + sleeps);
        assertTrue(plain.startToFirstResponseMs() > 0 && plain.startToFirstResponseMs() < plain.wallMs(), plain.toString());
    }

    @Test
    void aClientHoldingKnownBytesHasThemInItsHeapAndResidentSet() throws Exception {
        StartRecord plain = start(null);
        StartRecord holds = start(HoldsBytes.class.getName());
        long heap = holds.afterFirst().heapUsedBytes() - plain.afterFirst().heapUsedBytes();
        assertEquals(HELD_BYTES, heap, HEAP_SLACK_BYTES, "heap in use after a full collection, more by the bytes held");
        long rss = holds.afterFirst().rssBytes() - plain.afterFirst().rssBytes();
        assertTrue(rss >= HELD_BYTES - HEAP_SLACK_BYTES, "resident, every page written: " + (rss >> 20) + " MiB more");
    }
}
