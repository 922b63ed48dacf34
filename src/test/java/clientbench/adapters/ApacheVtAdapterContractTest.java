package clientbench.adapters;

import clientbench.api.HttpClientAdapter;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

/** {@link ApacheVtAdapter} against the adapter contract: the classic client has no HTTP/2. */
class ApacheVtAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "apache-vt";
    }

    @Override
    protected boolean refusesHttp2() {
        return true;
    }

    /** No I/O-thread knob: the classic client has no I/O threads: it does blocking I/O on each request's virtual thread. */
    @Override
    protected boolean takesIoThreads() {
        return false;
    }

    /** Apache's default strategy, found in the live client's execution chain. */
    @Override
    protected RetriesAsShipped retriesAsShipped(HttpClientAdapter adapter) throws Exception {
        return ApacheAdapterContractTest.retriesAsShipped(liveClient(adapter, CloseableHttpClient.class));
    }
}
