package clientbench.testkit;

import clientbench.harness.StubProcess;
import clientbench.stub.StubServer;
import java.net.URI;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The stub in a JVM of its own, for a test class that counts what the client JVM does (bytes allocated, Throwables
 * built, meters): started before the class's tests and closed after them; register it as a static
 * {@code @RegisterExtension} field. Its request count is the stub's own.
 */
public final class StubJvm implements BeforeAllCallback, AfterAllCallback {

    private StubProcess stub;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        stub = StubProcess.start(false, false);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (stub != null) {
            stub.close();
        }
    }

    public URI uri() {
        return stub.uri();
    }

    /** The requests the stub has read so far, by its own count. */
    public long requests() {
        StubServer.Stats stats = stub.stats();
        if (stats == null) {
            throw new IllegalStateException("the stub did not answer for its counts");
        }
        return stats.requests();
    }
}
