package clientbench.adapters;

import static org.junit.jupiter.api.Assertions.assertNull;

import clientbench.api.HttpClientAdapter;
import com.linecorp.armeria.client.ClientFactory;
import com.linecorp.armeria.client.WebClient;
import com.linecorp.armeria.client.retry.RetryingClient;
import com.linecorp.armeria.common.CommonPools;
import io.netty.util.concurrent.EventExecutor;
import java.util.List;

/** {@link clientbench.adapters.armeria.ArmeriaAdapter} against the adapter contract. */
class ArmeriaAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "armeria";
    }

    /**
     * The first ClientFactory a JVM builds builds Armeria's default one too, whose DNS resolver starts workers of
     * Armeria's CommonPools as it needs them: JVM-wide threads that never end, each started here before any case
     * counts threads (one a case started later read as a thread close() left).
     */
    @Override
    protected void startLibraryWideThreads() {
        ClientFactory.ofDefault();
        for (EventExecutor worker : CommonPools.workerGroup()) {
            worker.submit(() -> { }).syncUninterruptibly();
        }
    }

    /** Armeria's client TLS context for h2 offers its default ALPN list, h2 then http/1.1 (SslContextUtil). */
    @Override
    protected List<String> alpnOffersForH2() {
        return List.of("h2", "http/1.1");
    }

    /** Armeria retries only through a RetryingClient decorator: none on the live client, as shipped. */
    @Override
    protected RetriesAsShipped retriesAsShipped(HttpClientAdapter adapter) throws Exception {
        assertNull(liveClient(adapter, WebClient.class).as(RetryingClient.class), "a RetryingClient on the live client");
        return RetriesAsShipped.NONE;
    }

    /** Armeria's responseTimeout (FROM_START). */
    @Override
    protected Class<? extends Throwable> libraryTimeoutThrows() {
        return com.linecorp.armeria.client.ResponseTimeoutException.class;
    }
}
