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

    /** The JMH runs in order ({@link Profile#schedule}): a knee search's forks apart unless JMH's -f sets them. */
    List<Profile.Step> steps() {
        return profile.schedule(clients, !jmh.perRun().getForkCount().hasValue());
    }

    int runs() {
        return steps().size();
    }
}
