package clientbench.adapters;

import io.vertx.core.Vertx;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;

/** {@link VertxAdapter} against the adapter contract. */
class VertxAdapterContractTest extends AdapterContractTest {

    /**
     * Vert.x 5 keeps one JVM-wide {@code java.lang.ref.Cleaner} for its HTTP clients
     * ({@code io.vertx.core.impl.CleanerProvider.INSTANCE}), created on first use; its thread, "Cleaner-0", is
     * never ended, by close() or anything else. Made here, before any baseline, so that the first case of this
     * class does not count it as left behind by one adapter (it did, whichever case ran first in a fresh JVM).
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
}
