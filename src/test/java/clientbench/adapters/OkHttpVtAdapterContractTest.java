package clientbench.adapters;

import clientbench.api.HttpClientAdapter;
import java.util.List;
import okhttp3.OkHttpClient;

/** {@link OkHttpVtAdapter} against the adapter contract: over TLS it offers http/1.1 next to h2. */
class OkHttpVtAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "okhttp-vt";
    }

    @Override
    protected List<String> alpnOffersForH2() {
        return List.of("h2", "http/1.1");
    }

    /** No I/O-thread knob: OkHttp has no I/O threads: it does blocking I/O on each request's virtual thread. */
    @Override
    protected boolean takesIoThreads() {
        return false;
    }

    @Override
    protected RetriesAsShipped retriesAsShipped(HttpClientAdapter adapter) throws Exception {
        return OkHttpAdapterContractTest.retriesAsShipped(liveClient(adapter, OkHttpClient.class));
    }
}
