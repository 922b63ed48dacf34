package clientbench.results;

import clientbench.harness.probe.HostLoad;
import clientbench.harness.record.JsonFiles;
import clientbench.harness.probe.Niceness;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * How a run was made, for env.json's {@code conditions}: the command as the user gave it, the priority its processes
 * got (asked by the launcher, read back from the kernel in this JVM and in every fork and stub), and what else the
 * machine did over the run, each phase and each round (other processes' CPU, the hypervisor's steal). Parts are
 * marked between steps, while no child of this JVM runs, so that this JVM's own ticks hold its children's.
 */
public final class RunConditions {

    /** The launcher's command line, and the nice value it asked for (bench: BENCH_NICE). */
    static final String COMMAND_LINE = "clientbench.commandLine";
    static final String NICE_ASKED = "clientbench.niceAsked";

    private final HostLoad.Reading start = HostLoad.now();
    private final Map<String, HostLoad.Reading[]> phases = new LinkedHashMap<>();
    private final Map<String, HostLoad.Reading[]> rounds = new LinkedHashMap<>();
    private final Integer asked = Integer.getInteger(NICE_ASKED);
    private final int nice = Niceness.self();
    private Map<String, Object> timeFit;

    /** One line when the run did not get the priority the launcher asked for; null when it did, or asked none. */
    public String priorityLine() {
        if (asked == null || nice == asked) {
            return null;
        }
        return "bench: running at nice " + (nice == Niceness.UNKNOWN ? "(unreadable)" : nice) + ", not the " + asked
                + " asked for: raising priority needs CAP_SYS_NICE (root, or a limit from ulimit -e); env.json records"
                + " what the run got";
    }

    /** A phase (startup, behaviour, a shape) runs from its first start to its last end. */
    public void phaseStarts(String phase) {
        phases.computeIfAbsent(phase, k -> new HostLoad.Reading[] {HostLoad.now(), null});
    }

    public void phaseEnded(String phase) {
        ended(phases, phase);
    }

    /** A shape's round runs from its first step's start to its last step's end. */
    public void roundStarts(String shape, int round) {
        rounds.computeIfAbsent(shape + "\t" + round, k -> new HostLoad.Reading[] {HostLoad.now(), null});
    }

    public void roundEnded(String shape, int round) {
        ended(rounds, shape + "\t" + round);
    }

    /** What the machine did over a shape's round (env.json's rounds: {@code host}), or null where not read. */
    public Map<String, Object> round(String shape, int round) {
        HostLoad.Reading[] r = rounds.get(shape + "\t" + round);
        return r == null || r[1] == null ? null : HostLoad.between(r[0], r[1]);
    }

    /** What the plan cut to fit the profile's time limit (clientbench.plan.TimeFit), for env.json. */
    public void fitted(Map<String, Object> fit) {
        timeFit = fit;
    }

    /** env.json's {@code conditions}, over the run so far; the forks' and stubs' priorities from the trials in {@code dir}. */
    public Map<String, Object> toJson(Path dir) throws IOException {
        Map<String, Object> m = new LinkedHashMap<>();
        String line = System.getProperty(COMMAND_LINE);
        m.put("commandLine", line != null ? line : "not through ./bench: "
                + ProcessHandle.current().info().commandLine().orElse("unknown"));
        m.put("priority", priority(dir));
        m.put("host", HostLoad.between(start, HostLoad.now()));
        Map<String, Object> p = new LinkedHashMap<>();
        phases.forEach((phase, r) -> p.put(phase, r[1] == null ? null : HostLoad.between(r[0], r[1])));
        m.put("phases", p);
        if (timeFit != null) {
            m.put("timeFit", timeFit);
        }
        return m;
    }

    private Map<String, Object> priority(Path dir) throws IOException {
        Map<String, Object> priority = new LinkedHashMap<>();
        priority.put("askedNice", asked);
        priority.put("launcherNice", nice == Niceness.UNKNOWN ? null : nice);
        TreeSet<Integer> forks = new TreeSet<>();
        TreeSet<Integer> stubs = new TreeSet<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.trial.json")) {
            for (Path f : files) {
                JsonNode n = JsonFiles.MAPPER.readTree(f.toFile()).path("layout").path("nice");
                if (n.path("client").isInt()) {
                    forks.add(n.path("client").asInt());
                }
                if (n.path("stub").isInt()) {
                    stubs.add(n.path("stub").asInt());
                }
            }
        }
        priority.put("forkNice", forks);
        priority.put("stubNice", stubs);
        return priority;
    }

    private static void ended(Map<String, HostLoad.Reading[]> parts, String key) {
        HostLoad.Reading[] r = parts.get(key);
        if (r != null) {
            r[1] = HostLoad.now();
        }
    }
}
