package clientbench.plan;

/**
 * How long a fork may settle when a profile's time limit is near: the steps left share what the deadline leaves after
 * their fixed seconds (JVM start, JMH's windows, drains), never more than the shape's bound nor less than a floor.
 */
public final class SettleFit {

    /**
     * The shortest bound the fit gives: the quickest cold fork at the common rate is steady in 4 s (its first window,
     * compilers lent every CPU, is never judged; two quiet ones follow). Less settles no fork and only measures it cold.
     */
    public static final int FLOOR_SECONDS = 4;

    private SettleFit() {
    }

    /**
     * The settle bound for the next fork: {@code min(shapeSeconds, max(floor, (secondsToDeadline - fixedSecondsLeft) /
     * settlingStepsLeft))}, whole seconds rounded down. A shape that asks for no settling (0) gets none; with no step
     * left to share, the shape's own bound.
     */
    public static int capSeconds(int shapeSeconds, long secondsToDeadline, long fixedSecondsLeft, int settlingStepsLeft) {
        if (shapeSeconds <= 0) {
            return Math.max(0, shapeSeconds);
        }
        if (settlingStepsLeft <= 0) {
            return shapeSeconds;
        }
        long share = Math.floorDiv(secondsToDeadline - fixedSecondsLeft, settlingStepsLeft);
        return (int) Math.min(shapeSeconds, Math.max(Math.min(FLOOR_SECONDS, shapeSeconds), share));
    }
}
