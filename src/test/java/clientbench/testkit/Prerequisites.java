package clientbench.testkit;

import org.junit.jupiter.api.Assumptions;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * What a check needs from the machine (Linux's /proc, taskset, the report's venv, a signal it can send). Where it
 * is missing the check is skipped on a developer's machine, but under {@code CI=true} (which .ci/run exports) it
 * fails with the reason: a CI run must never be green because its checks did not run.
 */
public final class Prerequisites {

    private Prerequisites() {
    }

    /**
     * Skips the test (fails it under CI) with {@code reason} unless {@code met}: what is missing and how to get it, which
     * ./bench test prints last for each check that did not run.
     */
    public static void require(boolean met, String reason) {
        if (met) {
            return;
        }
        if (underCi()) {
            fail("the check cannot run here, and under CI=true that fails the build: " + reason);
        }
        Assumptions.abort(reason);
    }

    /** True when the environment says CI ({@code CI=true}, as .ci/run and most CI services set it). */
    public static boolean underCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }
}
