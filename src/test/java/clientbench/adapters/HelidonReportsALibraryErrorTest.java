package clientbench.adapters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import clientbench.api.AdapterConfig;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Request;
import clientbench.testkit.ChildJvm;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An Error Helidon throws on a request's virtual thread is that request's report, not a request left unreported. Its
 * own switch, set to a mode it does not know, makes the static initialiser its first request runs fail: the JVM throws
 * ExceptionInInitializerError then, and NoClassDefFoundError for that class ever after. A JVM of its own, as class
 * initialisation happens once a JVM.
 */
@Timeout(120)
class HelidonReportsALibraryErrorTest {

    /** Far past a report that comes at all: an unreported request shows up as such. */
    private static final long WAIT_SECONDS = 20;

    @Test
    void aClassThatFailsToInitialiseIsReportedAsOtherForEveryRequest() throws Exception {
        ChildJvm.Ended child = ChildJvm.main(Probe.class).jvmArgs("-Dio.helidon.metadata.mode=NO-SUCH-MODE").run(90);
        String out = child.output();
        assertEquals(0, child.status(), out);
        List<String> reports = out.lines().filter(l -> l.startsWith("report ")).toList();
        assertEquals(List.of("report 1 other java.lang.ExceptionInInitializerError",
                "report 2 other java.lang.NoClassDefFoundError"), reports, out);
        assertTrue(out.contains("NO-SUCH-MODE"), "the first report's cause names what failed:\n" + out);
    }

    /** Run in the child: two requests, each waited for, and what each reported (its cause's class). */
    static final class Probe {
        public static void main(String[] args) throws Exception {
            // Port 9 refuses on loopback: a Helidon that initialises would report CONNECT, not an Error.
            try (HttpClientAdapter adapter = Adapters.create("helidon", AdapterConfig.defaults(URI.create("http://127.0.0.1:9")))) {
                for (int i = 1; i <= 2; i++) {
                    boolean first = i == 1;
                    CompletableFuture<String> report = new CompletableFuture<>();
                    adapter.send(Request.get(URI.create("http://127.0.0.1:9"), "/", -1), (outcome, status, cause) -> {
                        if (first && cause != null) {
                            cause.printStackTrace(System.out);
                        }
                        report.complete(outcome.label() + " " + (cause == null ? "none" : cause.getClass().getName()));
                    });
                    String line;
                    try {
                        line = report.get(WAIT_SECONDS, TimeUnit.SECONDS);
                    } catch (TimeoutException e) {
                        line = "unreported";
                    }
                    System.out.println("report " + i + " " + line);
                }
            }
        }
    }
}
