package clientbench.plan;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The progress line's time left, weighed by each run's estimate (long knee searches come first). */
class TimeLeftTest {

    @Test
    void beforeAnyRunItIsTheEstimate() {
        assertEquals(Duration.ofSeconds(3_600), TimeLeft.of(Instant.now(), 0, 3_600));
    }

    @Test
    void runsThatTookTwiceTheirEstimateDoubleWhatIsLeft() {
        // 100 s for runs estimated at 50: pace 2, so the 100 s estimated left are 200 s. The margin is the time
        // this test's thread may stall between the two Instant.now() calls on a busy machine (10 s: a pace of 2.2).
        Duration left = TimeLeft.of(Instant.now().minusSeconds(100), 50, 150);
        assertTrue(left.toSeconds() >= 200 && left.toSeconds() <= 220, left.toString());
    }

    @Test
    void aFirstLongRunOnScheduleLeavesTheRestOnSchedule() {
        // The bug this replaces: one 90 s knee search of a 3,600 s profile of 116 runs, averaged as 31 s a run,
        // read as a pace of 3 and an hour turned into three.
        Duration left = TimeLeft.of(Instant.now().minusSeconds(90), 90, 3_600);
        assertTrue(left.toSeconds() >= 3_500 && left.toSeconds() <= 3_900, left.toString());
    }

    @Test
    void humanForm() {
        assertEquals("1h05m", TimeLeft.human(Duration.ofSeconds(3_900)));
        assertEquals("9m30s", TimeLeft.human(Duration.ofSeconds(570)));
    }
}
