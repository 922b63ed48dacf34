package clientbench.startup;

import java.util.List;
import java.util.Map;

/**
 * {@code startup.json}: what the run was, then every start of every client as it ran ({@link StartRecord}). Written
 * whole after each round, so an interrupted run keeps the rounds it finished.
 *
 * @param java the probe JVMs' {@code bin/java}
 * @param javaVersion their {@code java.version}, as the first probe that reported said; null before one did
 * @param jvmArgs every probe JVM's flags: the benchmark forks' ({@code ClientJvm.args})
 * @param classDataSharing how the starts with an archive got it, or why there are none
 * @param request what each probe sent: the first request, then {@code requestsAfterFirst} more one at a time
 * @param requestsAfterFirst the requests after the first, each sent when the previous one's outcome was in
 * @param boundSeconds each probe JVM's time limit
 * @param ioThreads the I/O threads every client was given, as in the benchmarks (one per client CPU)
 * @param stubCpus the CPUs the stub's JVM is pinned to (taskset's list), or null; the probe JVMs are not pinned, so
 *                 that the JVM sizes itself as a fork does at start and as a deployed one would
 * @param starts starts per client without its archive (rounds)
 * @param archiveStarts the first rounds whose starts include one with the client's archive
 * @param requestStarts the first rounds whose starts send {@code requestsAfterFirst} after the first
 * @param roundsDone the rounds finished; {@code starts} once the run is whole
 * @param seed the seed of the rounds' orders
 * @param prepared the starts made before the first round and not recorded, and why
 * @param clients each client's starts, in the order they ran; {@code noop} is the harness alone
 */
public record StartupResult(String java, String javaVersion, List<String> jvmArgs, String classDataSharing, String request,
                            int requestsAfterFirst, long boundSeconds, int ioThreads, String stubCpus, int starts,
                            int archiveStarts, int requestStarts, int roundsDone, long seed, List<String> prepared, Map<String, List<StartRecord>> clients) {
}
