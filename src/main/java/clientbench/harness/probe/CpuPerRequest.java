package clientbench.harness.probe;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * CPU per request as every figure here takes it: the client JVM's CPU time in a window less its JIT compiler threads'
 * (a warm-up's cost, which a long-running service pays once; a steady fork runs them on the stub's CPUs) and less the
 * harness's connection sampler's (an external target's: not the client's work), over the requests sent. Where the
 * compilers' time was not read as CPU time, the JVM's whole time, and the record says so.
 */
public final class CpuPerRequest {

    private CpuPerRequest() {
    }

    /** Microseconds per request; NaN where the JVM's CPU time is unknown or nothing was sent. */
    public static double micros(long jvmCpuNanos, long compilerCpuNanos, long samplerCpuNanos, long sent) {
        return jvmCpuNanos < 0 || sent == 0 ? Double.NaN
                : lessAside(jvmCpuNanos, compilerCpuNanos, samplerCpuNanos) / 1e3 / sent;
    }

    /** A recorded window's CPU time in ns as {@link #micros} counts it; -1 where the JVM's was not read. */
    public static long nanos(JsonNode iteration) {
        long jvm = iteration.path("cpuNanosInWindow").asLong(-1);
        JsonNode probes = iteration.path("probes");
        return jvm < 0 ? -1 : lessAside(jvm, probes.path("compilerCpuNanos").asLong(-1),
                probes.path("samplerCpuNanos").asLong(-1));
    }

    /** The rule itself: the compilers' and the sampler's time taken off where read (-1: not read, nothing taken off). */
    private static long lessAside(long jvmCpuNanos, long compilerCpuNanos, long samplerCpuNanos) {
        return jvmCpuNanos - Math.max(0, compilerCpuNanos) - Math.max(0, samplerCpuNanos);
    }
}
