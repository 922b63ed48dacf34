package clientbench.cli;

import clientbench.harness.RequestSpec;
import clientbench.jvm.Jdk;

import java.security.SecureRandom;
import java.util.List;

/**
 * A comparison run's input, checked: every (shape, client) pair of the profile in its rounds, run by JMH with the
 * given arguments on the given JDK.
 *
 * @param target the server's URL as given, or null for a stub in its own JVM per trial
 * @param request with a target: the request each trial sends it (path and query from the URL); null without
 * @param seed what each round's order of clients is drawn from ({@link Schedule}), recorded in env.json
 */
record RunPlan(Profile profile, List<String> clients, String target, JmhArgs jmh, Jdk jdk, RequestSpec request,
               long seed) {

    RunPlan(Profile profile, List<String> clients, String target, JmhArgs jmh, Jdk jdk) {
        this(profile, clients, target, jmh, jdk, target == null ? null : RequestSpec.NONE);
    }

    RunPlan(Profile profile, List<String> clients, String target, JmhArgs jmh, Jdk jdk, RequestSpec request) {
        this(profile, clients, target, jmh, jdk, request, new SecureRandom().nextLong());
    }

    /** The JMH runs in order ({@link Schedule}). */
    List<Schedule.Step> steps() {
        return Schedule.of(profile.shapes(), clients, seed);
    }

    int runs() {
        return steps().size();
    }
}
