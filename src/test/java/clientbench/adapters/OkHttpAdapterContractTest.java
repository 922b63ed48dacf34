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

    @Override
    protected RetriesAsShipped retriesAsShipped(HttpClientAdapter adapter) throws Exception {
        return retriesAsShipped(liveClient(adapter, OkHttpClient.class));
    }

    /**
     * OkHttp's default, as the live client has it: with retryOnConnectionFailure a stale pooled connection is recovered
     * from (its Javadoc), so the GET is sent at least twice; how often more is OkHttp's route planning.
     */
    static RetriesAsShipped retriesAsShipped(OkHttpClient live) {
        assertEquals(new OkHttpClient.Builder().build().retryOnConnectionFailure(), live.retryOnConnectionFailure(),
                "the live client's, as OkHttp ships it");
        return live.retryOnConnectionFailure() ? new RetriesAsShipped("retryOnConnectionFailure true", 2, Integer.MAX_VALUE)
                : RetriesAsShipped.exactly("retryOnConnectionFailure false", 1);
    }
}
