package clientbench.harness;

/**
 * What a trial measured around one iteration beside the generator's own counts: the machine's and the
 * stub's view. Every field is -1 when it was not measured (no stub, not Linux, not this shape).
 *
 * @param jvmCpus the CPUs the client JVM may use (its pinning), the base of its CPU share
 * @param connections the client's established connections to the target when the window closed (kernel)
 * @param heapBytes heap the client held then beyond its idle baseline, after a GC (long-lived shapes)
 * @param threadsAtClose the JVM's live threads then
 */
public record Probes(int jvmCpus, long connections, long heapBytes, long threadsAtClose) {

    public static final Probes NONE = new Probes(-1, -1, -1, -1);
}
