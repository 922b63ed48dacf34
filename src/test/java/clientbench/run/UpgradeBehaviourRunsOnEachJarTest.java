package clientbench.run;

import clientbench.behaviour.BehaviourRun;
import clientbench.upgrade.ClientBuild;
import clientbench.upgrade.VersionJar;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An upgrade's behaviour cases: the client once on each version's jar, named as the run names the versions (so the
 * library its JVM loads is that version's); {@code --no-behaviour} skips them (clientbench.cli.NoBehaviourOptionTest).
 */
class UpgradeBehaviourRunsOnEachJarTest {

    @Test
    void eachVersionRunsTheCasesOnItsOwnJarUnderItsName() {
        Path oldJar = Path.of("target/upgrade/jetty-12.1.3/benchmarks.jar");
        Path newJar = Path.of("target/upgrade/jetty-12.1.14/benchmarks.jar");
        Versions arms = Versions.of(new VersionJar.Built(ClientBuild.of("jetty", "12.1.3"), oldJar, "12.1.3", true),
                new VersionJar.Built(ClientBuild.of("jetty", "12.1.14"), newJar, "12.1.14", true));
        assertEquals(List.of(new BehaviourRun.Subject("jetty@12.1.3", "jetty", oldJar),
                new BehaviourRun.Subject("jetty@12.1.14", "jetty", newJar)), arms.behaviourSubjects());

        Versions aa = Versions.of(new VersionJar.Built(ClientBuild.of("jetty", "12.1.14"), newJar, "12.1.14", true),
                new VersionJar.Built(ClientBuild.of("jetty", "12.1.14"), newJar, "12.1.14", true));
        assertEquals(List.of("jetty@12.1.14", "jetty@12.1.14#2"), aa.behaviourSubjects().stream()
                .map(BehaviourRun.Subject::name).toList(), "an A/A run's two JVMs are told apart");
    }
}
