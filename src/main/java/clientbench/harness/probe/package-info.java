/**
 * The probes of the OS and the JVM: /proc and perf counters, libc calls, niceness, the host's load and steal, the JIT's
 * time, TCP connections and the listen queue, and CPU per request as every figure takes it. The bottom of the harness:
 * it imports only the JDK and the libraries, nothing of clientbench, so every other harness package can read it.
 */
package clientbench.harness.probe;
