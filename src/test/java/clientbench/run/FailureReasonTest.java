package clientbench.run;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A failed run is recorded with the line of its output that says why, so the report can say how a client failed. */
class FailureReasonTest {

    @Test
    void anOutOfMemoryErrorWinsOverEverythingElse() {
        assertEquals("Terminating due to java.lang.OutOfMemoryError: Java heap space", FailureReason.of("""
                # VM options: -Xmx1g -XX:+ExitOnOutOfMemoryError
                # Fork: 1 of 1
                Iteration   1: Terminating due to java.lang.OutOfMemoryError: Java heap space
                <forked VM failed with exit code 3>
                <stdout last='20 lines'>
                Terminating due to java.lang.OutOfMemoryError: Java heap space
                """));
    }

    @Test
    void otherwiseTheFirstExceptionOrJmhsWordOnTheFork() {
        assertEquals("java.lang.IllegalArgumentException: rate must be > 0 req/s, was 0", FailureReason.of("""
                <failure>
                java.lang.IllegalArgumentException: rate must be > 0 req/s, was 0
                \tat clientbench.harness.LoadSpec.open(LoadSpec.java:60)
                """));
        assertEquals("<forked VM failed with exit code 137>", FailureReason.of("<forked VM failed with exit code 137>\n"));
    }

    @Test
    void silenceIsSaidToBeSilence() {
        assertEquals("no reason in the output", FailureReason.of("# Run complete.\n"));
    }
}
