package clientbench.plan;

import clientbench.harness.RequestSpec;
import clientbench.jvm.Jdk;

import java.security.SecureRandom;
import java.util.List;

/**
 * A comparison run's checked input: every (shape, client) of the profile in its rounds, on the given JDK with the given
 * JMH arguments. {@code target} null: a stub in its own JVM per trial; {@code request}: with a target, what each trial
 * sends; {@code seed}: what each round's order is drawn from ({@link Schedule}).
 */
public record RunPlan(Profile profile, List<String> clients, String target, JmhArgs jmh, Jdk jdk, RequestSpec request,
               long seed) {

    public RunPlan(Profile profile, List<String> clients, String target, JmhArgs jmh, Jdk jdk) {
        this(profile, clients, target, jmh, jdk, target == null ? null : RequestSpec.NONE);
    }

    public RunPlan(Profile profile, List<String> clients, String target, JmhArgs jmh, Jdk jdk, RequestSpec request) {
        this(profile, clients, target, jmh, jdk, request, new SecureRandom().nextLong());
    }

    /** The JMH runs in order ({@link Schedule}). */
    public List<Schedule.Step> steps() {
        return Schedule.of(profile.shapes(), clients, seed);
    }

    public int runs() {
        return steps().size();
    }
}
