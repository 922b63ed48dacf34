package clientbench.run;

/** Why a run produced no result, in the one line of its JMH output that says so. */
final class FailureReason {

    private FailureReason() {
    }

    /** The line of a failed run's output that says why: an error, an exception, or JMH's word on the fork. */
    static String of(String log) {
        String fallback = null;
        for (String line : log.split("\n")) {
            String t = line.trim();
            int oom = t.indexOf("java.lang.OutOfMemoryError");
            if (oom >= 0) {
                // e.g. "Iteration   1: Terminating due to java.lang.OutOfMemoryError: Java heap space"
                int from = t.indexOf("Terminating due to");
                return t.substring(from >= 0 ? from : oom);
            }
            if (fallback == null && (t.matches("^[\\w.$]+(Exception|Error)\\b.*") || t.startsWith("<forked VM failed"))) {
                fallback = t;
            }
        }
        return fallback != null ? fallback : "no reason in the output";
    }
}
