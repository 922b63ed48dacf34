package clientbench.adapters;

import clientbench.api.HttpClientAdapter;
import reactor.netty.http.client.HttpClient;

/** {@link clientbench.adapters.reactor.ReactorVtAdapter} against the adapter contract: the reactor adapter's engine. */
class ReactorVtAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "reactor-vt";
    }

    /** Reactor Netty's default, as the live client's configuration has it. */
    @Override
    protected String retriesAsShipped(HttpClientAdapter adapter) throws Exception {
        return ReactorNettyAdapterContractTest.retriesAsShipped(liveClient(adapter, HttpClient.class));
    }

    /** Reactor Netty's responseTimeout: Netty's read timeout. */
    @Override
    protected Class<? extends Throwable> libraryTimeoutThrows() {
        return io.netty.handler.timeout.ReadTimeoutException.class;
    }
}
