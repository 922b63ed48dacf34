package clientbench.adapters;

import clientbench.api.HttpClientAdapter;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;

/**
 * {@link clientbench.adapters.spring.WebClientApacheAdapter} against the adapter contract: HTTP/1.1 only, as
 * every Spring adapter ({@code SpringLayer.NO_HTTP2}).
 */
class WebClientApacheAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "webclient-apache";
    }

    /** Spring's response does not say which HTTP version answered: the Spring adapters pin HTTP/1.1. */
    @Override
    protected boolean refusesHttp2() {
        return true;
    }

    /** Apache's default strategy, found in the live client's execution chain. */
    @Override
    protected RetriesAsShipped retriesAsShipped(HttpClientAdapter adapter) throws Exception {
        return ApacheAdapterContractTest.retriesAsShipped(liveClient(adapter, CloseableHttpAsyncClient.class));
    }

    /** The async client's RequestConfig responseTimeout: its I/O session's timeout. */
    @Override
    protected Class<? extends Throwable> libraryTimeoutThrows() {
        return java.net.SocketTimeoutException.class;
    }
}
