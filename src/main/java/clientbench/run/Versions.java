package clientbench.run;

import clientbench.behaviour.BehaviourRun;
import clientbench.upgrade.VersionJar;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The two versions an upgrade's run compares, the one it moves {@code from} (OLD; env.json's {@code old}) and the one
 * {@code to} (NEW; {@code new}), each a client on a jar of its own ({@link VersionJar}), named {@code <client>@<version>}
 * from its jar (an A/A run's second: {@code ...#2}). {@code noop} runs on the old version's jar: the harness and the
 * libraries it shares with the client are pinned alike in every jar.
 */
public record Versions(String client, Arm from, Arm to, long plantedSpinNanos) {

    /** One version: its name in the run (trial records, summary.json, the report), its jar, and how it was built. */
    record Arm(String label, VersionJar.Built built) {

        Path jar() {
            return built.jar();
        }

        Map<String, Object> toJson() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("label", label);
            m.put("asked", built.build().version());
            m.put("version", built.version());
            m.put("artifact", built.build().artifact());
            m.put("properties", built.build().properties());
            m.put("contractTest", built.build().contractTest());
            m.put("jar", built.jar().toString());
            m.put("cached", built.cached());
            return m;
        }
    }

    public static Versions of(VersionJar.Built from, VersionJar.Built to) {
        String client = from.build().client();
        String a = client + "@" + named(from);
        String b = client + "@" + named(to);
        return new Versions(client, new Arm(a, from), new Arm(b.equals(a) ? b + "#2" : b, to), 0);
    }

    /** A version as the run names it: the client's own ({@code 5.5.1}), or the shared library's ({@code netty-4.2.18.Final}). */
    private static String named(VersionJar.Built b) {
        return b.build().moved() == null ? b.version() : b.build().moved() + "-" + b.version();
    }

    /** The same versions, the new one's forks spinning {@code nanos} of CPU per request (PlantedCost): a known regression. */
    public Versions planted(long nanos) {
        return new Versions(client, from, to, nanos);
    }

    /** The CPU a step's forks spin per request: the plant, on the new version only. */
    long spinNanos(String label) {
        return label.equals(to.label()) ? plantedSpinNanos : 0;
    }

    /** The clients of the run: the old version, then the new. */
    public List<String> labels() {
        return List.of(from.label(), to.label());
    }

    /** The arm a step's client names; noop runs on the old version's jar. */
    Arm of(String label) {
        return label.equals(to.label()) ? to : from;
    }

    /** The adapter a step's client runs: the client's for either version, noop for noop. */
    String adapter(String label) {
        return label.equals(from.label()) || label.equals(to.label()) ? client : label;
    }

    /** The behaviour run's JVMs: the client on each version's jar, named as in the run (the old version first). */
    List<BehaviourRun.Subject> behaviourSubjects() {
        return List.of(new BehaviourRun.Subject(from.label(), client, from.jar()),
                new BehaviourRun.Subject(to.label(), client, to.jar()));
    }

    /** "apache 5.4.4 -> 5.6.5", "reactor with netty 4.2.17.Final -> 4.2.18.Final". */
    String words() {
        return from.built().build().words() + " -> " + to.built().version();
    }

    /** env.json's {@code upgrade}: the client, each version as built and named, and the order of each round. */
    Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("client", client);
        m.put("old", from.toJson());
        m.put("new", to.toJson());
        if (plantedSpinNanos > 0) {
            m.put("planted", Map.of("label", to.label(), "spinNanosPerRequest", plantedSpinNanos,
                    "what", "a known regression: each completion of the new version spins this CPU before the clock is read"));
        }
        m.put("order", "per shape: old, noop, new in odd rounds; new, noop, old in even rounds (noop on the old jar)");
        return m;
    }
}
