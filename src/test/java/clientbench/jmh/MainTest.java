package clientbench.jmh;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** The jar's main adds the harness profiler to runs, and only to runs. */
class MainTest {
    private static final String PROF = HarnessProfiler.class.getName();

    @Test
    void aRunGetsTheHarnessProfilerInFrontOfItsArguments() {
        assertArrayEquals(new String[] {"-prof", PROF, "OpenLoopBenchmark", "-p", "rate=2000"},
                Main.withHarnessProfiler(new String[] {"OpenLoopBenchmark", "-p", "rate=2000"}));
    }

    @Test
    void listingHelpAndRunsThatNameItAlreadyAreLeftAlone() {
        for (String[] argv : new String[][] {{"-l"}, {"-lp"}, {"-h"}, {"-lprof"}, {"-lrf"},
                {"OpenLoopBenchmark", "-prof", PROF}, {"-prof", "gc", "-prof", PROF}, {"-no-such-option"}}) {
            assertArrayEquals(argv, Main.withHarnessProfiler(argv));
        }
    }
}
