package clientbench.stub;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * An in-process stub on a free loopback port: on a static field
 * ({@code @RegisterExtension static final StubExtension stub = new StubExtension();}) one for the class; on an instance
 * field a fresh one for each test, its counts its own.
 */
public final class StubExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    private final StubOptions options;
    private StubServer server;
    private boolean perTest;

    public StubExtension() {
        this(StubOptions.loopback());
    }

    public StubExtension(StubOptions options) {
        this.options = options;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        server = StubServer.start(options);
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        if (server == null) { // an instance field: JUnit calls no beforeAll on it
            perTest = true;
            server = StubServer.start(options);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (perTest) {
            server.close();
            server = null;
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (server != null) {
            server.close();
        }
    }

    public StubServer server() {
        return server;
    }

    public int port() {
        return server.port();
    }

    public int openConnections() {
        return server.openConnections();
    }

    public java.net.URI uri() {
        return server.uri();
    }
}
