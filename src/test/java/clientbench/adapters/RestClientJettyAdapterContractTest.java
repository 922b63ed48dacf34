package clientbench.adapters;

import clientbench.api.HttpClientAdapter;

/**
 * {@link clientbench.adapters.spring.RestClientJettyAdapter} against the adapter contract: HTTP/1.1 only, as
 * every Spring adapter ({@code SpringLayer.NO_HTTP2}).
 */
class RestClientJettyAdapterContractTest extends AdapterContractTest {

    @Override
    protected String adapterName() {
        return "restclient-jetty";
    }

    /** Spring's response does not say which HTTP version answered: the Spring adapters pin HTTP/1.1. */
    @Override
    protected boolean refusesHttp2() {
        return true;
    }

    /** Jetty has no retry knob: the same client as the jetty adapters'. */
    @Override
    protected RetriesAsShipped retriesAsShipped(HttpClientAdapter adapter) {
        return RetriesAsShipped.NONE;
    }

    /** Jetty's Request.timeout, which the factory's read timeout sets (the adapter has no timer here). */
    @Override
    protected Class<? extends Throwable> libraryTimeoutThrows() {
        return java.util.concurrent.TimeoutException.class;
    }
}
