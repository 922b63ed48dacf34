package clientbench.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ./bench upgrade}: the behaviour cases run on each version's jar unless {@code --no-behaviour} is given. */
class NoBehaviourOptionTest {

    @Test
    void theCasesRunUnlessNoBehaviourIsGiven() {
        UpgradeCommand c = new UpgradeCommand();
        new CommandLine(c).parseArgs("jetty", "12.1.3", "12.1.14");
        assertFalse(c.noBehaviour);
        c = new UpgradeCommand();
        new CommandLine(c).parseArgs("jetty", "12.1.3", "12.1.14", "--no-behaviour", "--", "-foe", "true");
        assertTrue(c.noBehaviour);
        assertEquals(List.of("jetty", "12.1.3", "12.1.14", "-foe", "true"), c.positional, "JMH's arguments stay after --");
    }
}
