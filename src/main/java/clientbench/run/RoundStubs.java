package clientbench.run;

import clientbench.api.Protocol;
import clientbench.harness.CpuLayout;
import clientbench.harness.StubProcess;
import clientbench.jvm.Jdk;
import clientbench.plan.Schedule;

import java.io.IOException;
import java.util.List;

/**
 * One stub per round of a shape, started here and asked by that round's forks in turn ({@link StubProcess#SHARED}).
 * A stub of its own gave each fork a JIT and GC history of its own, and with it a p50 and p99 of its own; one stub
 * for the round makes that history the round's, which the verdict's round effects take out.
 */
final class RoundStubs implements AutoCloseable {
    private final Jdk jdk;
    private final boolean pin;
    /** Whether this run's forks ask a round's stub at all. */
    private final boolean shared;
    private String key;
    private StubProcess stub;

    /**
     * @param jdk the forks' JDK, which the stub runs on as a fork's own did
     * @param forkJvmArgs the forks' flags: {@code -Dclientbench.pin=false} ({@link CpuLayout#PIN}) leaves the stub
     *                    unpinned as it leaves them; a stub they name themselves
     *                    ({@code -jvmArgs -Dclientbench.stub.shared=}, blank: each fork its own) is theirs, and no
     *                    round's is started
     * @param target whether the run has a target of its own, which no stub stands in for
     */
    RoundStubs(Jdk jdk, List<String> forkJvmArgs, boolean target) {
        this.jdk = jdk;
        String pinned = property(forkJvmArgs, CpuLayout.PIN);
        this.pin = pinned == null || Boolean.parseBoolean(pinned);
        this.shared = !target && property(forkJvmArgs, StubProcess.SHARED) == null;
    }

    /** What the last {@code -Dproperty=} among the forks' flags sets it to, as their JVMs read it; null: none sets it. */
    private static String property(List<String> forkJvmArgs, String property) {
        String flag = "-D" + property + "=";
        return forkJvmArgs.stream().filter(a -> a.startsWith(flag)).reduce((first, last) -> last)
                .map(a -> a.substring(flag.length())).orElse(null);
    }

    /**
     * How forks find the stub of {@code step}'s round ({@link StubProcess#describe()}), started when the round is new;
     * null when the forks start their own.
     */
    String forStep(Schedule.Step step) throws IOException, InterruptedException {
        if (!shared) {
            return null;
        }
        boolean tls = Protocol.parse(step.shape().protocol()).tls();
        String next = step.shape().name() + "/" + step.round() + "/" + tls;
        if (!next.equals(key)) {
            close();
            CpuLayout layout = CpuLayout.plan(CpuLayout.allowedCpus(), pin);
            stub = StubProcess.startShared(tls, layout.pinned() ? layout.stubCpus() : null, jdk);
            key = next;
        }
        return stub.describe();
    }

    /** Ends the round's stub; the next round starts its own. */
    @Override
    public void close() {
        if (stub != null) {
            stub.close();
            stub = null;
            key = null;
        }
    }
}
