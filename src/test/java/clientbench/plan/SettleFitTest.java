package clientbench.plan;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SettleFitTest {

    @Test
    void plentyOfTimeGivesTheShapesOwnBound() {
        // 400 s to the deadline, 10 steps of 8 fixed seconds: (400 - 80) / 10 = 32 s each, over the shape's 20.
        assertEquals(20, SettleFit.capSeconds(20, 400, 80, 10));
    }

    @Test
    void aTightRunSharesWhatIsLeftAmongTheStepsLeft() {
        // 200 s left, 13 steps of 8 s: (200 - 104) / 13 = 7.38 -> 7 s, between the floor (4) and the bound (20).
        assertEquals(7, SettleFit.capSeconds(20, 200, 104, 13));
        // The last step alone: 30 s left, 8 fixed: 22 -> the shape's 20.
        assertEquals(20, SettleFit.capSeconds(20, 30, 8, 1));
        // 2 steps, 40 s left, 16 fixed: 24 / 2 = 12 s.
        assertEquals(12, SettleFit.capSeconds(20, 40, 16, 2));
    }

    @Test
    void pastTheDeadlineEveryForkGetsTheFloor() {
        // 10 s past it: (-10 - 80) / 10 = -9 -> the 4 s floor.
        assertEquals(4, SettleFit.capSeconds(20, -10, 80, 10));
        // The fixed seconds alone overrun: (50 - 80) / 10 = -3 -> 4.
        assertEquals(4, SettleFit.capSeconds(26, 50, 80, 10));
    }

    @Test
    void aShapeThatAsksForLessThanTheFloorOrNoneKeepsIt() {
        assertEquals(0, SettleFit.capSeconds(0, -100, 80, 10), "no settling asked for: none given");
        assertEquals(3, SettleFit.capSeconds(3, -100, 80, 10), "a bound under the floor is not raised");
        assertEquals(20, SettleFit.capSeconds(20, 0, 0, 0), "no step left to share: the shape's own");
    }
}
