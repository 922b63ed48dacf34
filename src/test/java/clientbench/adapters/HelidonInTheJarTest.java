package clientbench.adapters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import clientbench.stub.StubOptions;
import clientbench.stub.StubServer;
import clientbench.testkit.ChildJvm;
import io.helidon.metadata.MetadataDiscovery;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.http1.Http1Client;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Helidon in the shaded benchmark jar finds its metadata as in its own layout: each module's META-INF/helidon/manifest
 * merged into one, which Helidon reads from the class path. With one module's manifest only it scans the whole jar,
 * re-opening it as a zip file system per metadata file: slow, and a thread interrupted meanwhile (a deadline on the
 * first request) breaks a static initialiser for good.
 */
@Tag("reliability") // needs target/benchmarks.jar: mvn verify (Failsafe), after mvn package
@Timeout(120)
class HelidonInTheJarTest {

    private static final Path JAR = Path.of(System.getProperty("user.dir"), "target", "benchmarks.jar");
    private static final String MANIFEST = "META-INF/helidon/manifest";

    /** Every line of every Helidon jar's manifest on this class path (the unshaded jars) is in the jar's one. */
    @Test
    void theJarsHelidonManifestMergesEveryModulesOwn() throws IOException {
        assertTrue(Files.isRegularFile(JAR), "runs after mvn package (Failsafe): " + JAR);
        List<String> expected = helidonManifests();
        assertFalse(expected.isEmpty(), "Helidon's jars on the class path ship their manifests");
        List<String> merged = lines(JAR);
        assertEquals(expected.stream().filter(l -> l.startsWith("#")).count(),
                merged.stream().filter(l -> l.startsWith("#")).count(), "one id line a module:\n" + merged);
        assertEquals(expected.stream().filter(l -> !l.startsWith("#")).sorted().toList(),
                merged.stream().filter(l -> !l.startsWith("#")).sorted().toList());
    }

    /** The interrupt lands once Helidon has found its metadata, as it reads it: the case a deadline hit. */
    @Test
    void anInterruptWhileHelidonReadsItsMetadataLeavesItWorking() throws Exception {
        String out = probe("found-first");
        assertTrue(out.lines().anyMatch("second use: 200"::equals), out);
    }

    /** The interrupt lands before Helidon looks for its metadata: it still finds every service registry file. */
    @Test
    void anInterruptBeforeHelidonLooksForItsMetadataLosesNone() throws Exception {
        String out = probe("cold");
        long files = helidonManifests().stream().filter(l -> l.endsWith("/service-registry.json")).count();
        assertTrue(out.lines().anyMatch(("service registry files: " + files)::equals), files + " expected:\n" + out);
        assertTrue(out.lines().anyMatch("second use: 200"::equals), out);
    }

    private static String probe(String when) throws Exception {
        assertTrue(Files.isRegularFile(JAR), "runs after mvn package (Failsafe): " + JAR);
        Path testClasses = Path.of(Probe.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        ChildJvm.Ended child = ChildJvm.main(Probe.class).classPath(JAR + File.pathSeparator + testClasses).args(when).run(90);
        assertEquals(0, child.status(), child.output());
        return child.output();
    }

    /** The lines of the manifests of the Helidon jars on this class path, as Helidon ships them. */
    private static List<String> helidonManifests() throws IOException {
        List<String> out = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.endsWith(".jar") && Path.of(entry).getFileName().toString().startsWith("helidon-")) {
                out.addAll(lines(Path.of(entry)));
            }
        }
        return out;
    }

    /** A manifest's lines, blank ones left out; none when the jar has none. */
    private static List<String> lines(Path jar) throws IOException {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            var entry = zip.getEntry(MANIFEST);
            if (entry == null) {
                return List.of();
            }
            try (InputStream in = zip.getInputStream(entry)) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip)
                        .filter(l -> !l.isEmpty()).toList();
            }
        }
    }

    /**
     * Run on the benchmark jar ({@code found-first}: Helidon finds its metadata first, on a thread of its own; {@code
     * cold}: not): Helidon's first use on an interrupted thread, then a second on another.
     */
    static final class Probe {
        public static void main(String[] args) throws Exception {
            try (StubServer stub = StubServer.start(StubOptions.loopback())) {
                URI uri = stub.uri();
                if (args[0].equals("found-first")) {
                    MetadataDiscovery.instance();
                }
                Thread.ofVirtual().start(() -> {
                    Thread.currentThread().interrupt(); // a deadline's interrupt, come as Helidon first initialises
                    use("first", uri);
                }).join();
                Thread.ofVirtual().start(() -> use("second", uri)).join();
                System.out.println("service registry files: "
                        + MetadataDiscovery.instance().list("service-registry.json").size());
            }
            System.exit(0);
        }

        private static void use(String which, URI uri) {
            try (HttpClientResponse r = Http1Client.builder().baseUri(uri).build().get("/?bytes=5").request()) {
                System.out.println(which + " use: " + r.status().code());
            } catch (Throwable t) {
                System.out.println(which + " use failed:");
                t.printStackTrace(System.out);
            }
        }
    }
}
