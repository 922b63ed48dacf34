package clientbench.jvm;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Why a version's build failed, in one line, from Maven's logs of real builds of this project: OkHttp 4.12.0
 * (upper-bound rule, then javac), httpclient5 9.9.9 (no registry serves it), Vert.x 5.0.7 (Future.await's parameters),
 * and a contract test failure with Surefire's rerun (httpclient5 5.6) and without, in Surefire's summary format.
 */
class MavenFailureSaysWhyInOneLineTest {

    private static List<String> recorded(String name) throws IOException {
        try (InputStream in = MavenFailureSaysWhyInOneLineTest.class.getResourceAsStream("/clientbench/upgrade/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    @Test
    void aVersionTheRegistryDoesNotServe() throws IOException {
        assertEquals("Maven cannot resolve org.apache.httpcomponents.client5:httpclient5:jar:9.9.9 (the registry does not serve it)",
                MavenFailure.why(recorded("apache-9.9.9-unresolved.mvn.txt")));
    }

    /** A footprint's resolution: `mvn -q` starts its log with colour resets, even with -Dstyle.color=never. */
    @Test
    void aNativeJarTheRegistryDoesNotServeBehindColourCodes() throws IOException {
        List<String> log = recorded("reactor-footprint-unresolved.mvn.txt");
        assertTrue(log.get(0).startsWith("\u001B[0m"), log.get(0));
        assertEquals("Maven cannot resolve io.netty:netty-codec-native-quic:jar:linux-x86_64:4.2.19.Final (the registry does"
                + " not serve it)", MavenFailure.why(log));
    }

    @Test
    void aDependencyOlderThanALibraryAsksFor() throws IOException {
        assertEquals("the pom's upper-bound rule (maven-enforcer) refuses it: org.jetbrains.kotlin:kotlin-stdlib-jdk8"
                        + " resolves to 1.8.21 (through com.squareup.okhttp3:okhttp:4.12.0), but"
                        + " com.squareup.okio:okio-jvm:3.6.0 asks for 1.9.10",
                MavenFailure.why(recorded("okhttp-4.12.0-upper-bound.mvn.txt")));
    }

    @Test
    void anApiTheAdapterUsesThatTheVersionLacks() throws IOException {
        assertEquals("the adapter does not compile against it: OkHttpClients.java:24: cannot find symbol"
                        + " (symbol: class ConnectionListener)",
                MavenFailure.why(recorded("okhttp-4.12.0-compile.mvn.txt")));
    }

    @Test
    void aMethodWhoseParametersChanged() throws IOException {
        assertEquals("the adapter does not compile against it: VertxAdapter.java:163: method await in interface"
                        + " io.vertx.core.Future<T> cannot be applied to given types; (required: io.vertx.core.Future<T>,"
                        + " found: java.time.Duration)",
                MavenFailure.why(recorded("vertx-5.0.7-compile.mvn.txt")));
    }

    @Test
    void aContractTestThatFails() throws IOException {
        // httpclient5 5.6 let a trusted certificate for another host name through (case 2); its summary, with reruns.
        assertEquals("its contract test fails: ApacheAdapterContractTest>AdapterContractTest"
                        + ".certificatesAndHostNamesAreVerifiedUnlessTrustAllIsAsked:388 case 1 trusted, host named=OK OK 200",
                MavenFailure.why(recorded("apache-5.6-contract.mvn.txt")));
        List<String> once = List.of("[INFO] Results:", "[INFO] ", "[ERROR] Failures: ",
                "[ERROR]   ApacheAdapterContractTest>AdapterContractTest.bodyIsReadInFull:123 expected: <5> but was: <0>",
                "[INFO] ", "[ERROR] Tests run: 49, Failures: 1, Errors: 0, Skipped: 0");
        assertEquals("its contract test fails: ApacheAdapterContractTest>AdapterContractTest.bodyIsReadInFull:123"
                + " expected: <5> but was: <0>", MavenFailure.why(once));
    }
}
