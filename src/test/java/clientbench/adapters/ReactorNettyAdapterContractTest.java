package clientbench.adapters;

import clientbench.api.HttpClientAdapter;
import reactor.netty.http.client.HttpClient;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link ReactorNettyAdapter} against the adapter contract. */
class ReactorNettyAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "reactor";
    }

    @Override
    protected RetriesAsShipped retriesAsShipped(HttpClientAdapter adapter) throws Exception {
        return retriesAsShipped(liveClient(adapter, HttpClient.class));
    }

    /**
     * Reactor Netty's default, as the live client's configuration has it: retry not disabled, which resends a request
     * whose pooled connection is found closed before it is sent, never one the server took and then reset: once.
     */
    static RetriesAsShipped retriesAsShipped(HttpClient client) {
        boolean disabled = client.configuration().isRetryDisabled();
        assertEquals(HttpClient.create().configuration().isRetryDisabled(), disabled, "the live client's");
        return RetriesAsShipped.exactly("disableRetry " + disabled, 1);
    }

    /** Reactor Netty's responseTimeout: Netty's read timeout, never the adapter's Mono.timeout. */
    @Override
    protected Class<? extends Throwable> libraryTimeoutThrows() {
        return io.netty.handler.timeout.ReadTimeoutException.class;
    }
}
