package clientbench.harness.probe;

import clientbench.testkit.Prerequisites;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The steal share is read from the kernel's {@code cpu} line as documented in proc(5): the eighth counter is
 * steal, guest time (ninth and tenth) is already in user and nice and is not counted twice.
 */
class HostStealTest {

    @Test
    void theEighthCounterIsStealAndTheTotalLeavesGuestTimeOut() {
        // Two readings of a 2-CPU machine 2 s apart at 100 Hz: 400 ticks, 30 of them stolen. Guest ticks (50) also
        // moved: counted in user already, they must not enter the total.
        HostSteal.Ticks from = HostSteal.parse("cpu  1000 0 500 8000 10 0 20 70 50 0");
        HostSteal.Ticks to = HostSteal.parse("cpu  1200 0 600 8060 10 0 30 100 100 0");
        assertEquals(70, from.steal());
        assertEquals(1000 + 500 + 8000 + 10 + 20 + 70, from.total());
        assertEquals(1000 + 500 + 20, from.busy()); // user, nice, system, irq, softirq: neither idle, iowait nor steal
        assertEquals(30.0 / 400, HostSteal.share(from, to), 1e-12);
    }

    @Test
    void noStealColumnOrNoTickPassedIsUnknownNotZero() {
        assertNull(HostSteal.parse("cpu  1000 0 500 8000 10 0 20")); // a kernel before 2.6.11 had no steal
        HostSteal.Ticks t = HostSteal.parse("cpu  1000 0 500 8000 10 0 20 70");
        assertEquals(-1, HostSteal.share(t, t));
        assertEquals(-1, HostSteal.share(null, t));
        assertEquals(-1, HostSteal.share(t, null));
    }

    @Test
    void onLinuxTheMachineReportsAShareBetweenNoneAndAll() throws InterruptedException {
        HostSteal.Ticks from = HostSteal.now();
        Prerequisites.require(from != null, "no steal counter in /proc/stat (not Linux, or a kernel before 2.6.11)");
        Thread.sleep(50); // at least one tick of 10 ms on each CPU
        double share = HostSteal.share(from, HostSteal.now());
        assertTrue(share >= 0 && share <= 1, "steal share " + share);
    }
}
