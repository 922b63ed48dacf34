package clientbench.adapters;

import clientbench.api.HttpClientAdapter;

/**
 * {@link clientbench.adapters.spring.WebClientJdkAdapter} against the adapter contract: HTTP/1.1 only, as
 * every Spring adapter ({@code SpringLayer.NO_HTTP2}); the JDK client resends a GET whose connection dies.
 */
class WebClientJdkAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "webclient-jdk";
    }

    /** Spring's response does not say which HTTP version answered: the Spring adapters pin HTTP/1.1. */
    @Override
    protected boolean refusesHttp2() {
        return true;
    }

    /** No I/O-thread knob: the JDK's client has one selector thread and no knob for it. */
    @Override
    protected boolean takesIoThreads() {
        return false;
    }

    /** The JDK's client underneath resends such a GET once, with no switch (see JdkClients). */
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
