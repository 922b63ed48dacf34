package clientbench.adapters;

import clientbench.api.HttpClientAdapter;
import reactor.netty.http.client.HttpClient;

/**
 * {@link clientbench.adapters.spring.RestClientReactorAdapter} against the adapter contract: HTTP/1.1 only, as
 * every Spring adapter ({@code SpringLayer.NO_HTTP2}).
 */
class RestClientReactorAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "restclient-reactor";
    }

    /** Spring's response does not say which HTTP version answered: the Spring adapters pin HTTP/1.1. */
    @Override
    protected boolean refusesHttp2() {
        return true;
    }

    /** Reactor Netty's default, as the live client's configuration has it. */
    @Override
    protected RetriesAsShipped retriesAsShipped(HttpClientAdapter adapter) throws Exception {
        return ReactorNettyAdapterContractTest.retriesAsShipped(liveClient(adapter, HttpClient.class));
    }

    /** Reactor Netty's responseTimeout, which the factory's read timeout sets: Netty's read timeout. */
    @Override
    protected Class<? extends Throwable> libraryTimeoutThrows() {
        return io.netty.handler.timeout.ReadTimeoutException.class;
    }
}
