package clientbench.harness;

/**
 * What a trial measured around one iteration beside the generator's own counts: the kernel's and the
 * stub's view. Every field is -1 when it was not measured (no stub, not Linux, not this shape).
 *
 * @param jvmCpus the CPUs the client JVM may use (its pinning), the base of its CPU share
 * @param asked long-lived shapes: the requests asked to be held at once (their concurrency); else -1
 * @param connections the client's established connections to the target when the window closed (kernel)
 * @param connectionsPeak the most connections open at once in the window: the stub's count, or with an
 *                        external target the kernel's sampled a few times a second
 * @param connectionsUsed connections that carried a request in the window (the stub's count)
 * @param connectionsOpened connections the stub accepted over the iteration, drain included
 * @param stubRequests requests the stub answered over the iteration, drain included (beside {@code sent}:
 *                     they agree up to the requests still out at the drain deadline)
 * @param stubCpuShare the share of its CPUs the stub used in the window (0-1), -1 when unknown
 * @param listenRefused connections the kernel's accept queues refused over the iteration (see {@link ListenQueue})
 * @param heapBytes heap the client held at the window's close beyond its idle baseline, after a GC (long-lived shapes)
 * @param threadsAtClose the JVM's live threads then
 * @param jitShare the time the client JVM's JIT compilers spent compiling in the window, as a share of the window
 *                 times {@code jvmCpus} ({@link JitTime}: their threads' CPU time on Linux): above a tenth, the JVM
 *                 was still warming up and its figures include compilation; -1 when the JVM does not measure it
 * @param gcPauseMillis the time the client JVM's collectors paused it in the window ({@code JvmCounters#gcPauseMillis});
 *                      a pause as long as the SLO's latency bound can by itself fail a probe; -1 when unknown
 * @param stealShare the share of the machine's CPU time the hypervisor gave to other guests in the window
 *                   ({@link HostSteal}): the host's slowness, not the client's; -1 where it cannot be read
 * @param syscalls the client JVM's system calls in the window, every thread, counted by the kernel
 *                 ({@link KernelCounters}); -1 where not counted
 * @param contextSwitches the client JVM's context switches in the window, likewise; -1 where not counted
 */
public record Probes(int jvmCpus, long asked, long connections, long connectionsPeak, long connectionsUsed, long connectionsOpened,
                     long stubRequests, double stubCpuShare, long listenRefused, long heapBytes, long threadsAtClose,
                     double jitShare, long gcPauseMillis, double stealShare, long syscalls, long contextSwitches) {

    public static final Probes NONE = new Probes(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);

    /**
     * Over this {@link #jitShare} the client JVM was still warming up in the window: a settle loop runs until a window
     * is under it, a capacity miss over it is probed again, and the verdict marks such figures (thresholds.json).
     */
    public static final double JIT_WARMING = Thresholds.JIT_WARMING_SHARE;
}
