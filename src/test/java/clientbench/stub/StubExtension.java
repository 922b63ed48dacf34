package clientbench.stub;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One in-process stub for a test class: {@code @RegisterExtension static final StubExtension stub = new StubExtension();}
 * starts it on a free loopback port before the first test and closes it after the last.
 */
public final class StubExtension implements BeforeAllCallback, AfterAllCallback {
    private final StubOptions options;
    private StubServer server;

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
    public void afterAll(ExtensionContext context) {
        server.close();
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
