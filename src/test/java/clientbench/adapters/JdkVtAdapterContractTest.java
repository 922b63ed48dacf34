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

    /** The JDK's own switch, as it reads it from this JVM's properties; the resends it has no switch for. */
    @Override
    protected String retriesAsShipped(HttpClientAdapter adapter) {
        String disabled = System.getProperty("jdk.httpclient.disableRetryConnect");
        return "connect retry " + (disabled != null && !"false".equalsIgnoreCase(disabled) ? "off" : "ON")
                + " (jdk.httpclient.disableRetryConnect=" + disabled + "); still retried once, with no switch: an HTTP/1.1"
                + " GET/HEAD whose connection closes or resets before the first response byte, and an HTTP/2 stream refused"
                + " (REFUSED_STREAM) or unprocessed (GOAWAY)";
    }
}
