package clientbench.upgrade;

import clientbench.adapters.Adapters;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which pom properties a version's build sets, which artifact it reads back, and which contract test it runs. */
class ClientBuildTest {

    @Test
    void everyClientButTheJdksHasAVersionPropertyAndAContractTest() {
        for (String client : Adapters.names()) {
            if (client.startsWith("jdk")) {
                assertThrows(IllegalArgumentException.class, () -> ClientBuild.of(client, "9.0"));
                continue;
            }
            ClientBuild b = ClientBuild.of(client, "9.0");
            assertEquals(1, b.properties().size(), client);
            // The test the build runs exists: a name that matches no class would run nothing.
            assertDoesNotThrow(() -> Class.forName("clientbench.adapters." + b.contractTest()), client);
        }
    }

    @Test
    void okHttp4IsBuiltFromItsOwnArtifact() {
        ClientBuild four = ClientBuild.of("okhttp", "4.12.0");
        assertEquals(Map.of("okhttp.version", "4.12.0", "okhttp.artifact", "okhttp"), four.properties());
        assertEquals("com.squareup.okhttp3:okhttp", four.artifact());
        assertEquals("com.squareup.okhttp3:okhttp-jvm", ClientBuild.of("okhttp", "5.5.1").artifact());
    }

    @Test
    void aNettyBuildSetsNettysVersionAndReadsNettyBack() {
        ClientBuild b = ClientBuild.moving("reactor", "netty.version", "4.2.18.Final", "io.netty:netty-handler");
        assertEquals(Map.of("netty.version", "4.2.18.Final"), b.properties());
        assertEquals("io.netty:netty-handler", b.artifact());
        assertEquals("reactor-netty-4.2.18.Final", b.folderName());
        assertEquals("reactor-1.3.8", ClientBuild.of("reactor", "1.3.8").folderName());
        assertEquals("reactor with netty 4.2.18.Final", b.words());
        assertTrue(VersionJar.args(Path.of("."), b, Path.of("target")).contains("-Dnetty.version=4.2.18.Final"));
    }

    @Test
    void aVersionThatIsNoFolderNameIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ClientBuild.of("apache", "../5"));
        assertTrue(e.getMessage().contains("not a version"), e.getMessage());
    }
}
