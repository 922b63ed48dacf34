package clientbench.cli;

import clientbench.harness.RequestSpec;
import clientbench.jvm.Jdk;

import java.util.List;

/**
 * A comparison run's input, checked: every (shape, client) pair of the profile, run by JMH with the
 * given arguments on the given JDK.
 *
 * @param target the server's URL as given, or null for a stub in its own JVM per trial
 * @param request with a target: the request each trial sends it (path and query from the URL); null without
 */
record RunPlan(Profile profile, List<String> clients, String target, JmhArgs jmh, Jdk jdk, RequestSpec request) {

    RunPlan(Profile profile, List<String> clients, String target, JmhArgs jmh, Jdk jdk) {
        this(profile, clients, target, jmh, jdk, target == null ? null : RequestSpec.NONE);
    }

    int runs() {
        return profile.runs(clients);
    }
}
