package clientbench.harness;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A pacer sharing a core with the client parks until each send, leaving the core to the client's threads between sends,
 * and wakes about once per request; a pacer with a core of its own spins the last 120 us, many passes per send. The
 * wait loop's passes per request tell the two apart.
 */
@Timeout(60)
class ParkingPacerTest {

    private static final int REQUESTS = 300;

    /** Paces {@code REQUESTS} at 1k req/s; returns the wait loop's passes per request. */
    private static double loopsPerRequest(LoadSpec.Pacing pacing) {
        Pacer pacer = new Pacer(1_000, false, pacing);
        pacer.start(System.nanoTime());
        for (int i = 0; i < REQUESTS; i++) {
            pacer.awaitUntil(pacer.dueNanos(), () -> false);
            pacer.advance();
        }
        return (double) pacer.waitLoops() / REQUESTS;
    }

    @Test
    void aPacerSharingACoreParksOncePerRequest() {
        double park = loopsPerRequest(LoadSpec.Pacing.PARK);
        // One park to the due time; a second pass when the kernel wakes it a little early (it rounds to
        // its timer slack) or a spurious wake-up. Spinning would be hundreds of passes.
        assertTrue(park <= 3, "wait-loop passes per request when parking: " + park);
    }

    @Test
    void aPacerWithACoreOfItsOwnSpinsTheLastStretch() {
        double spin = loopsPerRequest(LoadSpec.Pacing.SPIN);
        // 120 us of Thread.onSpinWait() is thousands of passes when it gets the core; on a machine so busy
        // that the park's overshoot eats the whole stretch, fewer. Ten tells it from a parking pacer.
        assertTrue(spin > 10, "wait-loop passes per request when spinning: " + spin);
    }
}
