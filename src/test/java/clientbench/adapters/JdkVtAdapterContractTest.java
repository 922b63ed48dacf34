package clientbench.adapters;

import clientbench.api.HttpClientAdapter;
import java.util.List;

/**
 * {@link JdkVtAdapter} against the adapter contract: h2c by Upgrade, over TLS it offers http/1.1 next to h2,
 * it resends a GET whose connection dies, and it has one selector thread.
 */
class JdkVtAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "jdk-vt";
    }

    @Override
    protected List<String> alpnOffersForH2() {
        return List.of("h2", "http/1.1");
    }

    @Override
    protected boolean h2cByUpgrade() {
        return true;
    }

    /** No I/O-thread knob: the JDK's client has one selector thread and no knob for it. */
    @Override
    protected boolean takesIoThreads() {
        return false;
    }

    /**
     * The JDK resends an HTTP/1.1 GET once when its connection closes or resets before the first response
     * byte, new or pooled connection alike, and has no switch for it (see JdkClients): twice, documented.
     */
    @Override
    protected int sendsOfAGetWhoseConnectionDies() {
        return 2;
    }

    /** As the JDK client's: the same HttpClient underneath. */
    @Override
    protected String retriesAsShipped(HttpClientAdapter adapter) {
        return JdkAdapterContractTest.jdkRetries();
    }
}
