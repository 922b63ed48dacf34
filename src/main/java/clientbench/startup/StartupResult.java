package clientbench.startup;

import java.util.List;
import java.util.Map;

/**
 * {@code startup.json}: what the run was, then every start of every client as it ran ({@link StartRecord}), rewritten
 * after each round so an interrupted run keeps the rounds it finished. Only the stub is pinned ({@code stubCpus}):
 * probe JVMs size themselves as a fork does at start and as a deployed JVM would.
 */
public record StartupResult(String java, String javaVersion, List<String> jvmArgs, String classDataSharing, String request,
                            int requestsAfterFirst, long boundSeconds, int ioThreads, String stubCpus, int starts,
                            int archiveStarts, int requestStarts, int roundsDone, long seed, List<String> prepared, Map<String, List<StartRecord>> clients) {
}
