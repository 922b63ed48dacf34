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

    /** The library's default maxRequestRetry, and the live client's config holding it. */
    @Override
    protected String retriesAsShipped(HttpClientAdapter adapter) throws Exception {
        int shipped = new DefaultAsyncHttpClientConfig.Builder().build().getMaxRequestRetry();
        assertEquals(shipped, liveClient(adapter, AsyncHttpClient.class).getConfig().getMaxRequestRetry(), "the live client's");
        return "maxRequestRetry " + shipped + " (the default; read from the live config): how many times a request whose"
                + " connection closes under it may be sent again";
    }
}
