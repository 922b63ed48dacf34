package clientbench.adapters;

import clientbench.api.HttpClientAdapter;

/**
 * What the JDK's HttpClient brings to every adapter over it ({@code jdk}, {@code jdk-vt} and the Spring layers on
 * it): one selector thread and no knob for it, a GET resent once when its connection dies, the JDK's retry switch.
 */
abstract class JdkEngineContractTest extends AdapterContractTest {

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

    /** The JDK's own switch, as it reads it from this JVM's properties; the GET resent once, which it has no switch for. */
    @Override
    protected RetriesAsShipped retriesAsShipped(HttpClientAdapter adapter) {
        return RetriesAsShipped.exactly("jdk.httpclient.disableRetryConnect="
                + System.getProperty("jdk.httpclient.disableRetryConnect"), sendsOfAGetWhoseConnectionDies());
    }
}
