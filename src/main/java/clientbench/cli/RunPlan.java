package clientbench.cli;

import clientbench.jvm.Jdk;

import java.util.List;

/**
 * A comparison run's input, checked: every (shape, client) pair of the profile, run by JMH with the
 * given arguments on the given JDK.
 *
 * @param target the server's URL, or null for a stub in its own JVM per trial
 */
record RunPlan(Profile profile, List<String> clients, String target, JmhArgs jmh, Jdk jdk) {

    int runs() {
        return profile.runs(clients);
    }
}
