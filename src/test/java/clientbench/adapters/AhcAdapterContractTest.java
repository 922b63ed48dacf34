package clientbench.adapters;

import clientbench.adapters.ahc.AhcAdapter;
import clientbench.api.HttpClientAdapter;
import org.asynchttpclient.AsyncHttpClient;
import org.asynchttpclient.DefaultAsyncHttpClientConfig;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link AhcAdapter}: AsyncHttpClient rejects, rather than queues, requests that find every connection busy.
 * Its HTTP/2 runs with the adapter's work-arounds for the library's bugs ({@link AhcHttp2LibraryBehaviourTest}).
 */
class AhcAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "ahc";
    }

    @Override
    protected boolean rejectsWhenAllConnectionsBusy() {
        return true;
    }

    /** The library's default maxRequestRetry, held by the live client's config: so many sends again, each. */
    @Override
    protected RetriesAsShipped retriesAsShipped(HttpClientAdapter adapter) throws Exception {
        int shipped = new DefaultAsyncHttpClientConfig.Builder().build().getMaxRequestRetry();
        int live = liveClient(adapter, AsyncHttpClient.class).getConfig().getMaxRequestRetry();
        assertEquals(shipped, live, "the live client's");
        return RetriesAsShipped.exactly("maxRequestRetry " + live, 1 + live);
    }
}
