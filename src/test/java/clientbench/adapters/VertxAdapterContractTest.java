package clientbench.adapters;

import clientbench.api.HttpClientAdapter;
import io.vertx.core.Vertx;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;

/** {@link VertxAdapter} against the adapter contract. */
class VertxAdapterContractTest extends AdapterContractTest {

    /**
     * Vert.x 5 keeps one JVM-wide {@code Cleaner} for its HTTP clients, made on first use, whose thread "Cleaner-0"
     * never ends. Made here, before any baseline, so that whichever case runs first does not count it as left behind.
     */
    @BeforeAll
    static void startVertxJvmWideCleaner() throws Exception {
        Vertx vertx = Vertx.vertx();
        vertx.createHttpClient();
        vertx.close().await(Duration.ofSeconds(10));
    }

    @Override
    protected String adapterName() {
        return "vertx";
    }

    /** Vert.x's HTTP client has no retry of its own: nothing to read from the client. */
    @Override
    protected RetriesAsShipped retriesAsShipped(HttpClientAdapter adapter) {
        return RetriesAsShipped.NONE;
    }
}
