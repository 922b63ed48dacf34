package clientbench.adapters;

import clientbench.api.HttpClientAdapter;
import java.util.List;
import okhttp3.OkHttpClient;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link OkHttpAdapter} against the adapter contract: over TLS it offers http/1.1 next to h2. */
class OkHttpAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "okhttp";
    }

    @Override
    protected List<String> alpnOffersForH2() {
        return List.of("h2", "http/1.1");
    }

    /** No I/O-thread knob: OkHttp has no I/O threads: it does blocking I/O on the dispatcher's threads. */
    @Override
    protected boolean takesIoThreads() {
        return false;
    }

    /** OkHttp's default, as the live client has it: a call whose connection fails is sent again. */
    @Override
    protected String retriesAsShipped(HttpClientAdapter adapter) throws Exception {
        assertEquals(new OkHttpClient.Builder().build().retryOnConnectionFailure(),
                liveClient(adapter, OkHttpClient.class).retryOnConnectionFailure(), "the live client's, as OkHttp ships it");
        return "retryOnConnectionFailure true (the default): a call whose connection fails is sent again on another";
    }
}
