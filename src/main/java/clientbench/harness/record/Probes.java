package clientbench.harness.record;

/**
 * What a trial measured around one iteration besides the generator's counts, the kernel's and the stub's view; -1 when
 * not measured. {@code jitShare}: JIT time over window times {@code jvmCpus}, above a tenth still warming;
 * {@code compilerCpuNanos}: the JIT compiler threads' CPU time in the window (-1 where not read as CPU time);
 * {@code heapBytes}: held beyond the idle baseline (long-lived shapes); {@code stealShare}: the host's;
 * {@code samplerCpuNanos}: the harness's connection sampler's CPU time in the window (an external target's; -1: none).
 */
public record Probes(int jvmCpus, long asked, long connections, long connectionsPeak, long connectionsUsed, long connectionsOpened,
                     long stubRequests, double stubCpuShare, long listenRefused, long heapBytes, long threadsAtClose,
                     double jitShare, long compilerCpuNanos, long gcPauseMillis, double stealShare, long syscalls, long contextSwitches,
                     long samplerCpuNanos) {

    public static final Probes NONE = new Probes(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);

    /**
     * Over this {@link #jitShare} the client JVM was still warming up in the window: a settle loop runs until a window
     * is under it, a capacity miss over it is probed again, and the verdict marks such figures (thresholds.json).
     */
    public static final double JIT_WARMING = Thresholds.JIT_WARMING_SHARE;
}
