package clientbench.behaviour;

import clientbench.jvm.Jdk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client's cases in a JVM of their own, as a behaviour run starts it: its one line read back whole, the live client's
 * settings under the case's tuning beside the figures; a JVM that prints no results is a failure that says why.
 */
@Timeout(120)
class BehaviourJvmTest {

    @Test
    void aClientsJvmReportsEachCaseWithTheSettingsItRanWith() throws Exception {
        BehaviourRun.ClientResult r = BehaviourRun.probe(BehaviourRun.command(Jdk.current(), "jdk", 1, "reuse"));
        assertTrue(r.ok(), r.failure());
        assertEquals(java.util.List.of("reuse"), java.util.List.copyOf(r.cases().keySet()));
        CaseResult reuse = r.cases().get("reuse");
        Map<String, String> settings = reuse.settings();
        assertAll(reuse.toString(),
                () -> assertNull(reuse.failure()),
                () -> assertEquals("as-shipped", reuse.tuning()),
                () -> assertEquals(((Number) reuse.figures().get("requests")).intValue(),
                        ((Number) reuse.figures().get("sent")).intValue()),
                () -> assertNotNull(settings),
                () -> assertTrue(settings.get("tuning").startsWith("as-shipped:"), settings.get("tuning")),
                () -> assertEquals("java.net.http:" + Runtime.version(), settings.get("library"), "the live client's"),
                () -> assertEquals(clientbench.harness.record.Thresholds.behaviourRevision("reuse"), reuse.revision()),
                () -> assertTrue(settings.get("retries").startsWith("connect retry ON"),
                        "the JDK's connect retry as shipped, read in the client's JVM: " + settings.get("retries")));
    }

    @Test
    void aJvmWithoutResultsIsAFailureThatSaysWhy() throws Exception {
        BehaviourRun.ClientResult r = BehaviourRun.probe(BehaviourRun.command(Jdk.current(), "curl", 1));
        assertFalse(r.ok());
        assertTrue(r.cases().isEmpty());
        assertTrue(r.failure().startsWith("exited with status 2 without results") && r.failure().contains("unknown client 'curl'"),
                r.failure());
    }
}
