package clientbench.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import clientbench.adapters.Adapters;
import clientbench.testkit.ChildJvm;
import java.io.File;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every client's library version as the benchmark jar reports it. The shaded jar replaces the libraries' manifests that
 * the unit tests' class path still has, so this runs on target/benchmarks.jar and checks against the libraries' own
 * records (Vert.x's vertx-version.txt, Netty's version file), not the list the fallback reads.
 */
@Tag("reliability") // needs target/benchmarks.jar: mvn verify (Failsafe), after mvn package
@Timeout(120)
class LibraryVersionInTheJarTest {

    private static final Path JAR = Path.of(System.getProperty("user.dir"), "target", "benchmarks.jar");

    @Test
    void everyClientNamesItsVersionInTheBenchmarkJar() throws Exception {
        assertTrue(Files.isRegularFile(JAR), "runs after mvn package (Failsafe): " + JAR);
        Path testClasses = Path.of(Probe.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        // The jar first: every adapter and library class loads from it; only the probe comes from the test classes.
        ChildJvm.Ended probe = ChildJvm.main(Probe.class).classPath(JAR + File.pathSeparator + testClasses).run(60);
        String output = probe.output();
        assertEquals(0, probe.status(), output);
        Map<String, String> versions = new TreeMap<>();
        output.lines().filter(l -> l.startsWith("version ")).forEach(l -> {
            String[] kv = l.substring(8).split("=", 2);
            versions.put(kv[0], kv[1]);
        });
        assertEquals(new java.util.TreeSet<>(Adapters.names()), versions.keySet(), output);
        versions.forEach((client, v) -> assertFalse(v.endsWith(":unknown"), client + ": " + v));
        assertEquals("io.vertx:vertx-core:" + line(output, "vertx-version.txt="), versions.get("vertx"), output);
        // The fallback's list against a library's own record: Netty's version file, merged into the jar.
        assertEquals(line(output, "netty-common="), line(output, "resolved netty-common="), output);
        assertFalse(line(output, "netty-common=").isBlank(), output);
        // The Netty a fork records (settings "netty"), read in the jar as the adapters read it.
        assertEquals("io.netty:netty-handler:" + line(output, "netty-handler="), line(output, "recorded netty="), output);
    }

    private static String line(String output, String prefix) {
        return output.lines().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow(() -> new AssertionError(
                "no line " + prefix + " in:\n" + output)).substring(prefix.length());
    }

    @Test
    void aDependencyListLineGivesItsVersionAndOnlyForItsOwnCoordinates() {
        assertEquals("5.0.5", LibraryVersion.versionIn("   io.vertx:vertx-core:jar:5.0.5:compile -- module io.vertx.core",
                "io.vertx", "vertx-core"));
        assertEquals("4.2.18.Final", LibraryVersion.versionIn(
                "   io.netty:netty-transport-native-epoll:jar:linux-x86_64:4.2.18.Final:runtime",
                "io.netty", "netty-transport-native-epoll"));
        assertEquals("1.3.8", LibraryVersion.versionIn("   io.projectreactor.netty:reactor-netty-http:jar:1.3.8:compile"
                + "\u001B[36m -- module reactor.netty.http\u001B[0;1m [auto]\u001B[m", "io.projectreactor.netty", "reactor-netty-http"));
        assertNull(LibraryVersion.versionIn("   io.vertx:vertx-core-logging:jar:5.0.5:compile", "io.vertx", "vertx-core"));
        assertNull(LibraryVersion.versionIn("The following files have been resolved:", "io.vertx", "vertx-core"));
    }

    /** Run on the benchmark jar by the test above. */
    static final class Probe {
        public static void main(String[] args) throws Exception {
            AdapterConfig config = AdapterConfig.defaults(URI.create("http://127.0.0.1:9"));
            for (String name : Adapters.names()) {
                try (HttpClientAdapter adapter = Adapters.create(name, config)) {
                    System.out.println("version " + name + "=" + adapter.libraryVersion());
                }
            }
            try (InputStream in = Probe.class.getResourceAsStream("/META-INF/vertx/vertx-version.txt")) {
                System.out.println("vertx-version.txt=" + new String(in.readAllBytes(), StandardCharsets.UTF_8).strip());
            }
            System.out.println("netty-common=" + io.netty.util.Version.identify().get("netty-common").artifactVersion());
            System.out.println("resolved netty-common=" + LibraryVersion.resolved("io.netty", "netty-common"));
            System.out.println("netty-handler=" + io.netty.util.Version.identify().get("netty-handler").artifactVersion());
            System.out.println("recorded netty=" + clientbench.adapters.support.NettyLibrary.version());
        }
    }
}
