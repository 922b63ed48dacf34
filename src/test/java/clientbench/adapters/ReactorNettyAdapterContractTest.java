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

    /** Reactor Netty's default, as the live client's configuration has it: retry not disabled. */
    @Override
    protected String retriesAsShipped(HttpClientAdapter adapter) throws Exception {
        return retriesAsShipped(liveClient(adapter, HttpClient.class));
    }

    /** The record of a client whose retry is as Reactor Netty ships it. */
    static String retriesAsShipped(HttpClient client) {
        assertEquals(HttpClient.create().configuration().isRetryDisabled(), client.configuration().isRetryDisabled(),
                "the live client's");
        return "the library's default: a request whose pooled connection closes before it is sent is sent once more"
                + " on another";
    }

    /** Reactor Netty's responseTimeout: Netty's read timeout, never the adapter's Mono.timeout. */
    @Override
    protected Class<? extends Throwable> libraryTimeoutThrows() {
        return io.netty.handler.timeout.ReadTimeoutException.class;
    }
}
