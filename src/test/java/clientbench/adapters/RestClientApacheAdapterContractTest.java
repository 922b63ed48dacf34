package clientbench.adapters;

import clientbench.api.HttpClientAdapter;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

/**
 * {@link clientbench.adapters.spring.RestClientApacheAdapter} against the adapter contract: HTTP/1.1 only, as
 * every Spring adapter ({@code SpringLayer.NO_HTTP2}).
 */
class RestClientApacheAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "restclient-apache";
    }

    /** Spring's response does not say which HTTP version answered: the Spring adapters pin HTTP/1.1. */
    @Override
    protected boolean refusesHttp2() {
        return true;
    }

    /** No I/O-thread knob: the classic client does blocking I/O on each request's virtual thread. */
    @Override
    protected boolean takesIoThreads() {
        return false;
    }

    /** Apache's default strategy, found in the live client's execution chain. */
    @Override
    protected RetriesAsShipped retriesAsShipped(HttpClientAdapter adapter) throws Exception {
        return ApacheAdapterContractTest.retriesAsShipped(liveClient(adapter, CloseableHttpClient.class));
    }

    /** The classic client's RequestConfig responseTimeout: a socket read timeout. */
    @Override
    protected Class<? extends Throwable> libraryTimeoutThrows() {
        return java.net.SocketTimeoutException.class;
    }
}
