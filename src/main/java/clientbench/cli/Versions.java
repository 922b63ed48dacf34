package clientbench.cli;

import clientbench.behaviour.BehaviourRun;
import clientbench.upgrade.VersionJar;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The two versions an upgrade's run compares, each a client on a jar of its own ({@link VersionJar}), named
 * {@code <client>@<version>} from its jar (an A/A run's second: {@code ...#2}). {@code noop} runs on the old version's
 * jar: the harness and the libraries it shares with the client are pinned alike in every jar.
 */
record Versions(String client, Arm old, Arm neu) {

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

    static Versions of(VersionJar.Built old, VersionJar.Built neu) {
        String client = old.build().client();
        String a = client + "@" + old.version();
        String b = client + "@" + neu.version();
        return new Versions(client, new Arm(a, old), new Arm(b.equals(a) ? b + "#2" : b, neu));
    }

    /** The clients of the run: the old version, then the new. */
    List<String> labels() {
        return List.of(old.label(), neu.label());
    }

    /** The arm a step's client names; noop runs on the old version's jar. */
    Arm of(String label) {
        return label.equals(neu.label()) ? neu : old;
    }

    /** The adapter a step's client runs: the client's for either version, noop for noop. */
    String adapter(String label) {
        return label.equals(old.label()) || label.equals(neu.label()) ? client : label;
    }

    /** The behaviour run's JVMs: the client on each version's jar, named as in the run (the old version first). */
    List<BehaviourRun.Subject> behaviourSubjects() {
        return List.of(new BehaviourRun.Subject(old.label(), client, old.jar()),
                new BehaviourRun.Subject(neu.label(), client, neu.jar()));
    }

    /** "apache 5.4.4 -> 5.6.5". */
    String words() {
        return client + " " + old.built().version() + " -> " + neu.built().version();
    }

    /** env.json's {@code upgrade}: the client, each version as built and named, and the order of each round. */
    Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("client", client);
        m.put("old", old.toJson());
        m.put("new", neu.toJson());
        m.put("order", "per shape: old, noop, new in odd rounds; new, noop, old in even rounds (noop on the old jar)");
        return m;
    }
}
